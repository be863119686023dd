import type { Clock } from '../../clock/clock.js';
import { type DecodedSubmit, encodeSubmit } from '../../contract/pdu/index.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { MessageMemories } from './messageMemories.js';
import { MessageStatus } from './messageStorage.js';
import type { ModemOutput } from './modemOutput.js';
import type { ModemProfile } from './modemProfile.js';
import { isRegistered } from './networkCommands.js';
import { deliverParts, type IncomingMessage, statusReportFor } from './networkPdus.js';
import type { NetworkRegistration } from './networkRegistration.js';
import { CmsCode } from './resultCodes.js';
import {
  appendBounded,
  DEFAULT_STATUS_REPORT_DELAY_MS,
  type SimulatedModemOptions,
} from './simulatedModemOptions.js';
import type { SmsIndications } from './smsIndications.js';

export interface AcceptedPdu {
  /** The PDU as written after the prompt, upper-case, SMSC field included. */
  hex: string;
  decoded: DecodedSubmit;
  /** The reference this modem answered with (+CMGS: <mr>). */
  messageReference: number;
  acceptedAt: number;
}

export interface InjectOptions {
  /**
   * 'cmt' routes each part directly (+CMT), 'cmti' stores it and announces it (+CMTI). Default:
   * what AT+CNMI <mt> asks for (2 → +CMT, 1 or 3 → +CMTI, 0 → stored without a word).
   */
  delivery?: 'cmti' | 'cmt';
  /**
   * Zero-based part indexes in the order the network delivers them. Leaving one out simulates
   * a lost part; repeating one simulates a duplicate.
   */
  partOrder?: number[];
}

interface InjectedFailure {
  code: number;
  remaining?: number;
  /** Only sends to this number (its digits) fail; others go through. */
  recipientDigits?: string;
}

/** The digits of a number, so that "+1 555 000-1111" and "15550001111" name the same phone. */
function digitsOf(number: string): string {
  return number.replace(/\D/g, '');
}

/**
 * Whether two numbers' digits name the same phone, with or without the country code: one ends
 * with the other, as handsets match a caller to a contact ("(555) 000-1111" is +1 555 000 1111).
 */
function sameNumber(left: string, right: string): boolean {
  const [shorter, longer] = left.length <= right.length ? [left, right] : [right, left];
  return shorter.length >= 6 && longer.endsWith(shorter);
}

export interface SmsNetworkDeps {
  options: Pick<SimulatedModemOptions, 'statusReportDelayMs' | 'statusReportMemory' | 'historyLimit'>;
  clock: Clock;
  logger: Logger;
  /** The service centre address written into the PDUs the network delivers. */
  smsc: string;
  memories: MessageMemories;
  registration: NetworkRegistration;
  indications: SmsIndications;
  output: ModemOutput;
  profile: () => ModemProfile;
}

/**
 * The SMS side of the simulated network: it accepts submitted PDUs (or refuses them as a test
 * asked, or without service), answers with a message reference, returns status reports after a
 * delay, and delivers incoming messages in parts.
 */
export class SmsNetwork {
  private readonly acceptedPdus: AcceptedPdu[] = [];
  private injectedFailure?: InjectedFailure;
  private reportStatus = 0x00;
  private nextMessageReference = 0;
  private nextConcatReference = 0;

  constructor(private readonly deps: SmsNetworkDeps) {}

  /** Every PDU accepted, in order. */
  get accepted(): readonly AcceptedPdu[] {
    return this.acceptedPdus;
  }

  /**
   * The next sends (all until cleared, or `count`), or only those to `recipient`, are refused
   * with +CMS ERROR: <cmsCode>.
   */
  failSends(cmsCode: number, count?: number, recipient?: string): void {
    if (count !== undefined && (!Number.isInteger(count) || count < 1)) {
      throw new GatewayError(ErrorCode.ValidationFailed, 'failSends count must be a positive integer', {
        field: 'count',
      });
    }
    this.injectedFailure = {
      code: cmsCode,
      ...(count === undefined ? {} : { remaining: count }),
      ...(recipient === undefined ? {} : { recipientDigits: digitsOf(recipient) }),
    };
  }

  clearFailures(): void {
    this.injectedFailure = undefined;
  }

  /** TP-Status of future status reports (TS 23.040 §9.2.3.15; default 0x00, delivered). */
  setStatusReportOutcome(status: number): void {
    if (!Number.isInteger(status) || status < 0 || status > 0xff) {
      throw new GatewayError(ErrorCode.ValidationFailed, 'TP-Status is one octet', { field: 'status' });
    }
    this.reportStatus = status;
  }

  /** A checked PDU handed to the network: accepted, or the +CMS code it is refused with. */
  submit(hex: string, decoded: DecodedSubmit): AcceptedPdu | { refusedWith: number } {
    const failureCode = this.takeInjectedFailure(decoded.recipient.number);
    if (failureCode !== undefined) return { refusedWith: failureCode };
    if (!isRegistered(this.deps.registration.status())) return { refusedWith: CmsCode.NoNetworkService };
    const messageReference = this.nextMessageReference;
    // TS 23.040 §9.2.3.6: TP-MR is one octet and wraps from 255 to 0.
    this.nextMessageReference = (messageReference + 1) % 256;
    const accepted: AcceptedPdu = {
      hex: hex.toUpperCase(),
      decoded,
      messageReference,
      acceptedAt: this.deps.clock.now(),
    };
    appendBounded(this.acceptedPdus, accepted, this.deps.options.historyLimit);
    this.deps.logger.debug('accepted a send', {
      recipient: decoded.recipient.number,
      messageReference,
      statusReportRequested: decoded.statusReportRequested,
    });
    return accepted;
  }

  /** After the +CMGS answer: the status report follows when the send asked for one. */
  scheduleStatusReport(send: AcceptedPdu): void {
    if (!send.decoded.statusReportRequested) return;
    this.deps.output.later(
      () => this.deliverStatusReport(send),
      this.deps.options.statusReportDelayMs ?? DEFAULT_STATUS_REPORT_DELAY_MS,
    );
  }

  /** Delivers a message from `sender`, in as many parts as it needs. */
  injectIncoming(message: IncomingMessage, options: InjectOptions = {}): void {
    const { indications, memories, logger } = this.deps;
    const parts = this.partsOf(message);
    const order = options.partOrder ?? parts.map((_part, index) => index);
    const route = options.delivery ?? indications.routeForNewMessages();
    const chosen = order.map((index) => {
      const part = parts[index];
      if (!part) {
        throw new GatewayError(
          ErrorCode.ValidationFailed,
          `part ${index} does not exist (${parts.length} parts)`,
          {
            field: 'partOrder',
          },
        );
      }
      return part;
    });
    for (const part of chosen) {
      if (route === 'cmt') {
        // TS 27.005 §3.4.1 <mt>=2, PDU mode: +CMT: [<alpha>],<length> and the PDU on the next line.
        indications.indicate([`+CMT: ,${part.tpduLength}`, part.hex]);
        indications.expectAcknowledgement();
        continue;
      }
      const index = memories.sim.store(part.hex, part.tpduLength, MessageStatus.ReceivedUnread);
      if (index === undefined) {
        logger.warn('SIM message storage is full: the network keeps the incoming part', {
          sender: message.sender,
        });
        continue;
      }
      if (route === 'cmti') indications.indicate([`+CMTI: "SM",${index}`]);
    }
  }

  /** Adds a message to the SIM store without a word to the host, as a full SIM fills up. */
  storeIncoming(message: IncomingMessage): void {
    for (const part of this.partsOf(message)) {
      this.deps.memories.sim.store(part.hex, part.tpduLength, MessageStatus.ReceivedUnread);
    }
  }

  /**
   * Stores an outgoing message on the SIM as a phone's "save for later" does (stat 2, stored
   * unsent, TS 27.005 §3.1): a host leaves it there, so its slots stay taken. False when a part
   * found the store full.
   */
  storeUnsent(recipient: string, text: string): boolean {
    const parts = encodeSubmit({
      recipient,
      content: { kind: 'text', text },
      requestStatusReport: false,
      concatReference: this.nextConcatReference,
    });
    this.nextConcatReference = (this.nextConcatReference + 1) % 256;
    const { sim } = this.deps.memories;
    return parts.every(
      (part) => sim.store(part.hex, part.tpduLength, MessageStatus.StoredUnsent) !== undefined,
    );
  }

  /** One message's parts, each multi-part message with the next concatenation reference. */
  private partsOf(message: IncomingMessage): ReturnType<typeof deliverParts> {
    const parts = deliverParts(message, this.deps.smsc, this.nextConcatReference, this.deps.clock.now());
    this.nextConcatReference = (this.nextConcatReference + 1) % 256;
    return parts;
  }

  private takeInjectedFailure(recipient: string): number | undefined {
    const failure = this.injectedFailure;
    if (!failure) return undefined;
    if (failure.recipientDigits !== undefined && !sameNumber(failure.recipientDigits, digitsOf(recipient)))
      return undefined;
    if (failure.remaining !== undefined) {
      failure.remaining--;
      if (failure.remaining <= 0) this.injectedFailure = undefined;
    }
    return failure.code;
  }

  private deliverStatusReport(send: AcceptedPdu): void {
    const { output, indications, memories, logger, options } = this.deps;
    if (!output.running) return;
    const report = statusReportFor(send, this.reportStatus, this.deps.smsc, this.deps.clock.now());
    // TS 27.005 §3.4.1 <ds>: 1 routes the report directly (+CDS), 2 stores it and indicates
    // where (+CDSI), 0 routes nothing (the report is only stored).
    const routing = this.deps.profile().indications.ds;
    if (routing === 1) {
      indications.indicate([`+CDS: ${report.tpduLength}`, report.hex]);
      indications.expectAcknowledgement();
      return;
    }
    const memory = options.statusReportMemory ?? 'SM';
    const index = memories.all
      .get(memory)
      ?.store(report.hex, report.tpduLength, MessageStatus.ReceivedUnread);
    if (index === undefined) {
      logger.warn('message storage is full: a status report was lost', {
        memory,
        messageReference: send.messageReference,
      });
      return;
    }
    if (routing === 2) indications.indicate([`+CDSI: "${memory}",${index}`]);
  }
}
