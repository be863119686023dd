import type { ModemStatus } from '../../contract/domain/device.js';
import { describeError, ErrorCode, GatewayError, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { readPinState } from './modemHealth.js';
import type { SetupContext } from './modemSetup.js';

export interface SimPinOptions {
  /**
   * SIM PIN tried when the SIM asks. Sent automatically at most once per value unless the SIM
   * accepted it: any other answer (a refusal, an unknown error, silence) stops it until a person
   * enters a PIN (`enter`), as 3 wrong PINs lock a SIM to its PUK.
   */
  configuredPin?: string;
  logger: Logger;
  commandTimeoutMs: number;
  /** The driver's status, set when the SIM needs a person. */
  setStatus(status: Extract<ModemStatus, 'sim-pin-required' | 'sim-pin-wrong'>, detail: string): void;
}

/**
 * Unlocking the SIM during bring-up (with the configured PIN) and when a person types one. The
 * only state is the PIN value the SIM did not accept, which is never sent automatically again.
 */
export class SimPin {
  /** The configured PIN's value after an answer other than OK: never sent automatically again. */
  private unconfirmedPin?: string;

  constructor(private readonly options: SimPinOptions) {}

  /** Returns true when the SIM is usable; otherwise sets the status that says why. */
  async unlock(context: SetupContext, cpinWithoutOk: boolean): Promise<boolean> {
    const state = await readPinState(context, cpinWithoutOk);
    if (state === undefined || state === 'READY') return true;
    if (state === 'NOT INSERTED') {
      throw new GatewayError(ErrorCode.ModemNotReady, 'no SIM card in the modem');
    }
    if (state.includes('PUK')) {
      this.options.setStatus(
        'sim-pin-wrong',
        'The SIM is blocked after too many wrong PINs: unlock it with its PUK in a phone.',
      );
      return false;
    }
    if (state !== 'SIM PIN') {
      this.options.setStatus('sim-pin-required', `The modem asks for ${state}.`);
      return false;
    }
    const pin = this.options.configuredPin;
    if (pin === undefined) {
      this.options.setStatus('sim-pin-required', 'The SIM asks for its PIN: enter it for this device.');
      return false;
    }
    if (pin === this.unconfirmedPin) {
      this.options.setStatus(
        'sim-pin-wrong',
        'The SIM did not accept the configured PIN, which is not sent again; enter the PIN for this device.',
      );
      return false;
    }
    await this.submit(context, pin);
    return true;
  }

  /** A PIN a person typed (never retried automatically); resolves once the SIM is unlocked. */
  async enter(context: SetupContext, pin: string, cpinWithoutOk: boolean): Promise<void> {
    const state = await readPinState(context, cpinWithoutOk);
    if (state?.includes('PUK')) {
      throw new GatewayError(
        ErrorCode.SimPinWrong,
        'the SIM is blocked and needs its PUK (unlock it in a phone)',
      );
    }
    if (state !== 'READY') await this.submit(context, pin);
  }

  /**
   * TS 27.007 §8.3 AT+CPIN. Only OK counts as accepted. Any other outcome — +CME ERROR 16
   * "incorrect password", another error, no answer — may have used up one of the SIM's 3 tries,
   * so the PIN is remembered and the failure is terminal (no recovery step sends it again).
   * Neither the status nor the error carries the PIN: the session masks it in command text.
   */
  private async submit(context: SetupContext, pin: string): Promise<void> {
    const { logger } = this.options;
    try {
      await context.session.execute(`AT+CPIN="${pin}"`, { timeoutMs: this.options.commandTimeoutMs });
    } catch (error) {
      this.unconfirmedPin = pin;
      const wrong = isGatewayError(error, ErrorCode.CmeError) && error.modemCode === 16;
      const answer = isGatewayError(error, ErrorCode.AtTimeout) ? 'no answer' : describeError(error);
      this.options.setStatus(
        'sim-pin-wrong',
        wrong
          ? 'The SIM rejected the PIN. It is not retried automatically: a SIM locks after 3 wrong PINs.'
          : `PIN refused or unknown answer (${answer}). It is not sent again automatically: a SIM ` +
              'locks after 3 wrong PINs; enter the PIN for this device.',
      );
      logger.warn(wrong ? 'the SIM rejected the PIN' : 'PIN refused or unknown answer', {
        error: describeError(error),
      });
      throw new GatewayError(
        ErrorCode.SimPinWrong,
        wrong ? 'the SIM rejected the PIN' : `PIN refused or unknown answer (${answer})`,
        { modemCode: isGatewayError(error) ? error.modemCode : undefined, cause: error },
      );
    }
    this.unconfirmedPin = undefined;
    logger.info('SIM unlocked');
  }
}
