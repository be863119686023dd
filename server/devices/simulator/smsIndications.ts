import type { Transport } from '../transport/transport.js';
import type { UrcRoutingState } from './commandTypes.js';
import type { ModemOutput } from './modemOutput.js';
import type { ModemProfile } from './modemProfile.js';
import { frameResponse } from './resultCodes.js';

/**
 * The SMS indications (+CMTI, +CDSI, +CMT, +CDS) as AT+CNMI, AT+CSMS and the port routing of a
 * multi-port modem (AT^PORTSEL, AT+QURCCFG) ask: held while <mode> is 0, sent to the port they
 * are routed to, and for +CMT/+CDS the acknowledgement AT+CNMA owes.
 */
export class SmsIndications {
  /** Without a second port every indication comes on the command port anyway. */
  readonly urcRouting: UrcRoutingState = { toCommandPort: false, quectelPort: 'usbmodem' };
  /** Indications held while AT+CNMI <mode> is 0 (TS 27.005 §3.4.1: buffered in the TA). */
  private buffered: string[][] = [];
  private acknowledgementDue = false;

  constructor(
    private readonly output: ModemOutput,
    private readonly profile: () => ModemProfile,
    private readonly indicationPort: Transport | undefined,
  ) {}

  /** SMS indications obey AT+CNMI <mode>: 0 holds them in the TA until the mode changes. */
  indicate(lines: string[]): void {
    if (this.profile().indications.mode === 0) this.buffered.push(lines);
    else this.output.write(frameResponse(lines), this.target());
  }

  /**
   * After AT+CNMI: TS 27.005 §3.4.1 <bfr> 0 flushes the buffered codes to the TE (after the OK
   * of the AT+CNMI that enabled them: `afterReply`), 1 clears them.
   */
  settingsChanged(afterReply: (work: () => void) => void): void {
    const { mode, bfr } = this.profile().indications;
    if (mode === 0) return;
    const buffered = this.buffered.splice(0);
    if (bfr === 0) afterReply(() => this.writeAll(buffered));
  }

  /** How a new incoming message is delivered, by AT+CNMI <mt>. */
  routeForNewMessages(): 'cmt' | 'cmti' | 'store' {
    const { mt } = this.profile().indications;
    if (mt === 2) return 'cmt';
    return mt === 0 ? 'store' : 'cmti';
  }

  /** TS 27.005 §3.4.4: with AT+CSMS=1 every +CMT and +CDS must be acknowledged by AT+CNMA. */
  expectAcknowledgement(): void {
    if (this.profile().messageService === 1) this.acknowledgementDue = true;
  }

  /** AT+CNMA: true when a +CMT or +CDS was waiting for it. */
  acknowledge(): boolean {
    const due = this.acknowledgementDue;
    this.acknowledgementDue = false;
    return due;
  }

  /** A restart loses what the TA held. */
  clearBuffered(): void {
    this.buffered = [];
  }

  private writeAll(indications: readonly string[][]): void {
    for (const lines of indications) this.output.write(frameResponse(lines), this.target());
  }

  private target(): Transport {
    const other = this.indicationPort;
    return other && !this.urcRouting.toCommandPort ? other : this.output.commandPort;
  }
}
