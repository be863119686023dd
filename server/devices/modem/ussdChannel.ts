import type { Clock, TimerHandle } from '../../clock/clock.js';
import { ErrorCode, GatewayError, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { UnsolicitedCode } from '../at/atSession.js';
import type { UssdAnswer } from '../pool/capabilities.js';
import type { ModemSession } from './modemSession.js';
import { decodeUssdString, encodeUssdString, parseCusd, type UssdDialect, UssdStatus } from './ussdCodec.js';

export interface UssdChannelOptions {
  clock: Clock;
  logger: Logger;
  commandTimeoutMs: number;
}

interface Waiter {
  resolve(answer: UssdAnswer): void;
  reject(error: Error): void;
}

/** The default alphabet, language unspecified (TS 23.038 §5): what every request is sent as. */
const requestDcs = 15;

/**
 * One modem's USSD exchanges (TS 27.007 §7.15). `AT+CUSD=1,<str>,<dcs>` answers OK at once; the
 * network's answer comes later as a `+CUSD:` code. The waiter exists before the command is
 * written, so an answer racing the OK is not lost. The caller runs each request in the modem's
 * exclusive lane, so there is at most one waiter.
 */
export class UssdChannel {
  private waiter?: Waiter;

  constructor(private readonly options: UssdChannelOptions) {}

  /** Takes `+CUSD:` codes; returns false for any other code. */
  handleUnsolicited(code: UnsolicitedCode, dialect: UssdDialect): boolean {
    if (code.name !== '+CUSD') return false;
    const result = parseCusd(code.args);
    const waiter = this.waiter;
    if (!result) {
      this.options.logger.warn('unreadable USSD answer', { line: code.line });
      return true;
    }
    if (!waiter) {
      // A network-initiated USSD, or an answer after we gave up on it.
      this.options.logger.info('USSD answer nobody waits for', { line: code.line });
      return true;
    }
    this.waiter = undefined;
    if (result.status === UssdStatus.NotSupported || result.status === UssdStatus.OtherClientResponded) {
      waiter.reject(
        new GatewayError(
          ErrorCode.UssdRefused,
          `the network refused the USSD request (+CUSD: ${result.status})`,
          {
            modemCode: result.status,
          },
        ),
      );
      return true;
    }
    if (result.status === UssdStatus.NetworkTimeout) {
      waiter.reject(new GatewayError(ErrorCode.UssdTimeout, 'the network timed the USSD session out'));
      return true;
    }
    const text =
      result.text === undefined
        ? ''
        : decodeUssdString(result.text, result.dcs ?? requestDcs, dialect.form, dialect.charset);
    waiter.resolve({ status: result.status, text });
    return true;
  }

  /** Sends `text` (a code such as `*100#`, or a reply in an open session) and waits for the answer. */
  async request(
    session: ModemSession,
    text: string,
    dialect: UssdDialect,
    timeoutMs: number,
  ): Promise<UssdAnswer> {
    const encoded = encodeUssdString(text, dialect.form, dialect.charset);
    if (encoded === undefined) {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        'the USSD code has characters GSM 7-bit cannot carry',
        {
          field: 'code',
        },
      );
    }
    let timer: TimerHandle | undefined;
    const answer = new Promise<UssdAnswer>((resolve, reject) => {
      this.waiter = { resolve, reject };
      timer = this.options.clock.setTimer(() => {
        this.waiter = undefined;
        reject(new GatewayError(ErrorCode.UssdTimeout, `no USSD answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const { lines } = await session.execute(`AT+CUSD=1,"${encoded}",${requestDcs}`, {
        timeoutMs: this.options.commandTimeoutMs,
      });
      // Some modems answer before their OK: the line then belongs to the command's response.
      for (const line of lines) {
        const match = /^\+CUSD:\s?(.*)$/i.exec(line.trim());
        if (match) this.handleUnsolicited({ name: '+CUSD', args: match[1] ?? '', line }, dialect);
      }
    } catch (error) {
      timer?.cancel();
      this.waiter = undefined;
      answer.catch(() => undefined);
      if (isGatewayError(error, ErrorCode.AtError) || isGatewayError(error, ErrorCode.CmeError)) {
        throw new GatewayError(
          ErrorCode.UssdRefused,
          `the modem refused the USSD request: ${error.message}`,
          {
            modemCode: error.modemCode,
            cause: error,
          },
        );
      }
      throw error;
    }
    try {
      return await answer;
    } catch (error) {
      // A session the network may still hold open would block the next request.
      if (isGatewayError(error, ErrorCode.UssdTimeout)) await this.cancel(session).catch(() => undefined);
      throw error;
    } finally {
      timer?.cancel();
    }
  }

  /** `AT+CUSD=2`: ends the session the network holds open for a reply. */
  async cancel(session: ModemSession): Promise<void> {
    await session.execute('AT+CUSD=2', { timeoutMs: this.options.commandTimeoutMs });
  }
}
