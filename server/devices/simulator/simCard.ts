/**
 * The SIM's PIN lock as `AT+CPIN` sees it (TS 27.007 §8.3).
 *
 * A SIM with a PIN starts locked (`+CPIN: SIM PIN`). Three wrong PINs in a row block it
 * (`+CPIN: SIM PUK`), as every GSM SIM does (3GPP TS 51.011, formerly GSM 11.11: the CHV1
 * attempt counter starts at 3). The simulator knows no PUK: a blocked SIM stays blocked until
 * the modem is rebuilt, so a gateway that keeps guessing PINs shows up in tests instead of
 * being silently rescued.
 */
export type SimStatus = 'READY' | 'SIM PIN' | 'SIM PUK';

export type PinOutcome = 'unlocked' | 'wrong' | 'blocked' | 'not-required';

const PIN_ATTEMPTS = 3;

export class SimCard {
  private state: SimStatus;
  private attemptsLeft = PIN_ATTEMPTS;

  constructor(private readonly pin: string | undefined) {
    this.state = pin === undefined ? 'READY' : 'SIM PIN';
  }

  get status(): SimStatus {
    return this.state;
  }

  get isReady(): boolean {
    return this.state === 'READY';
  }

  enterPin(candidate: string): PinOutcome {
    if (this.state === 'READY') return 'not-required';
    if (this.state === 'SIM PUK') return 'blocked';
    if (candidate === this.pin) {
      this.state = 'READY';
      this.attemptsLeft = PIN_ATTEMPTS;
      return 'unlocked';
    }
    this.attemptsLeft--;
    if (this.attemptsLeft === 0) this.state = 'SIM PUK';
    return 'wrong';
  }

  /** A power cycle (AT+CFUN=1,1): an unblocked SIM with a PIN asks for it again. */
  powerCycle(): void {
    if (this.state === 'READY' && this.pin !== undefined) this.state = 'SIM PIN';
  }
}
