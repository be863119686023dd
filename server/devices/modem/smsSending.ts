import { randomInt } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import { encodeSubmit } from '../../contract/pdu/index.js';
import { describeError, ErrorCode, GatewayError, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { PduWaits } from '../at/atSession.js';
import { parseCmgs } from '../at/parsers.js';
import type { SendRequest, SendResult } from '../pool/outboundModem.js';
import type { ModemSession } from './modemSession.js';
import { sendFailureError, submitOptionsFor } from './outgoingSms.js';
import type { RelayLinkKeeper } from './relayLinkKeeper.js';

export interface SmsSendingOptions {
  clock: Clock;
  logger: Logger;
  /** The waits of each part's `AT+CMGS` exchange. */
  waits: PduWaits;
  /** First concatenation reference (0..255). Default random, so a restart does not reuse one. */
  initialConcatReference?: number;
  /** A part went unanswered: the driver checks whether the modem is still there. */
  onSilence(): void;
  /** Every part went out: status reports may now be waiting in the storage. */
  onSent(): void;
  /**
   * Resolves once the messages the modem announced so far are read and deleted. Each part sent
   * brings a status report later, and reading one takes two commands (`AT+CMGR`, `AT+CMGD`):
   * taking turns with the parts, reading fell behind sending and the SIM filled.
   */
  storageRead(): Promise<void>;
  /** Keeps the relay link open between parts and messages where the modem offers `+CMMS`. */
  relayLink: Pick<RelayLinkKeeper, 'beforePart' | 'partAnswered' | 'partLost'>;
}

/**
 * Sending one message over an AT session: encodes its parts (SMS-SUBMIT PDUs tied by one
 * concatenation reference), writes each with `AT+CMGS` and collects their TP-MR references.
 * The driver decides whether the modem may send at all and keeps sends from overlapping.
 */
export class SmsSending {
  private concatReference: number;

  constructor(private readonly options: SmsSendingOptions) {
    this.concatReference = options.initialConcatReference ?? randomInt(256);
  }

  async send(session: ModemSession, request: SendRequest, deviceId: string): Promise<SendResult> {
    if (request.simNumber !== 1) {
      throw new GatewayError(ErrorCode.ValidationFailed, `modem ${deviceId} has one SIM slot`, {
        field: 'simNumber',
      });
    }
    const { logger } = this.options;
    const parts = encodeSubmit(submitOptionsFor(request, this.concatReference, this.options.clock.now()));
    this.concatReference = (this.concatReference + 1) % 256;
    const references: number[] = [];
    for (const [index, part] of parts.entries()) {
      await this.options.storageRead();
      const { relayLink } = this.options;
      await relayLink.beforePart(session);
      let lines: string[];
      try {
        ({ lines } = await session.sendPdu(`AT+CMGS=${part.tpduLength}`, part.hex, this.options.waits));
      } catch (error) {
        const failure = this.failure(error, request, index, parts.length);
        if (failure.code === ErrorCode.CmsError) relayLink.partAnswered();
        else relayLink.partLost();
        throw failure;
      }
      relayLink.partAnswered();
      const reference = parseCmgs(lines);
      if (reference === undefined) {
        // OK without +CMGS: the network took the part, but without its TP-MR no status report
        // can be matched to it; -1 is outside 0..255, so none ever will.
        logger.warn('+CMGS reference missing in the answer', { messageId: request.messageId, lines });
      }
      references.push(reference ?? -1);
    }
    logger.info('message sent', { messageId: request.messageId, parts: parts.length, references });
    this.options.onSent();
    return { references };
  }

  /**
   * Logs what became of a part that did not go out cleanly, and checks the modem when it went
   * silent; the error itself says whether anything may have left (`sendFailureError`).
   */
  private failure(error: unknown, request: SendRequest, index: number, count: number): GatewayError {
    const failure = sendFailureError(error, index, count);
    if (failure.code === ErrorCode.CmsError) {
      this.options.logger.warn('modem refused the message', {
        messageId: request.messageId,
        modemCode: failure.modemCode,
        part: index + 1,
      });
    } else if (failure.code === ErrorCode.SendInterrupted) {
      this.options.logger.warn('send interrupted; outcome unknown', {
        messageId: request.messageId,
        error: describeError(error),
      });
      if (isGatewayError(error, ErrorCode.AtTimeout)) this.options.onSilence();
    }
    return failure;
  }
}
