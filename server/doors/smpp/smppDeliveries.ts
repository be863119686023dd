import { createHash } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import { type Caller, callerKey } from '../../contract/domain/caller.js';
import type { IncomingMessageEvent } from '../../contract/domain/incoming.js';
import type { MessageRecord } from '../../contract/domain/message.js';
import type { AttemptOutcome, OutboxJob } from '../../contract/domain/outboxJob.js';
import { toGsm7Characters } from '../../contract/pdu/gsm7.js';
import { type Segment, segmentText } from '../../contract/pdu/segmenter.js';
import type { Logger } from '../../logging/logger.js';
import type { EventBus } from '../../services/events/eventBus.js';
import type { Outbox } from '../../services/outbox/outbox.js';
import { jobOfStoredItem, type StoredItem } from '../../services/outbox/storedItem.js';
import type { IncomingRule } from '../../services/webhooks/webhookAudience.js';
import type { KeyedCollection } from '../../store/keyedCollection.js';
import { receiptOutcome, receiptText, type SubmitMemo } from './deliveryReceipt.js';
import { addressOfPhoneNumber } from './smppAddress.js';
import type { DeliveryAnswer } from './smppSession.js';
import { SmppStatus } from './smppStatus.js';

/** Where an incoming SMS came in: what an app's incoming rule is asked about. */
export type IncomingOrigin = Parameters<IncomingRule>[1];

/** A deliver_sm owed to a receiver: a job of the outbox until one acknowledges it. */
export interface HeldDelivery {
  type: 'receipt' | 'mo';
  /** A receipt: only a session of the login that submitted (`callerKey`) takes it. */
  owner?: string;
  /** A receipt kept before `owner`: only a session bound with this system_id takes it. */
  systemId?: string;
  /** An incoming SMS: only a session whose login hears it (its incoming rule) takes it. */
  origin?: IncomingOrigin;
  /** deliver_sm fields; octet strings as Base64 under `base64Fields`. */
  fields: Record<string, string | number>;
  base64Fields: string[];
}

/** A deliver_sm kept in the `smpp-outbox` collection before the one outbox. */
export type StoredDelivery = Omit<HeldDelivery, 'type'> & StoredItem & { kind: HeldDelivery['type'] };

export function jobOfStoredDelivery(stored: StoredDelivery): Omit<OutboxJob<HeldDelivery>, 'seq'> {
  const { kind, owner, systemId, origin, fields, base64Fields } = stored;
  const payload: HeldDelivery = {
    type: kind,
    fields,
    base64Fields,
    ...(owner !== undefined ? { owner } : {}),
    ...(systemId !== undefined ? { systemId } : {}),
    ...(origin !== undefined ? { origin } : {}),
  };
  return jobOfStoredItem(stored, { kind: 'smpp', lane: laneOf(payload), payload });
}

/** Receipts by the login they go to, incoming SMS in one lane: a login's deliveries keep their order. */
function laneOf(delivery: HeldDelivery): string {
  return delivery.owner ?? (delivery.systemId !== undefined ? `system-id:${delivery.systemId}` : 'incoming');
}

/** A bound session that may receive, as the outbox sees it. */
export interface SmppReceiver {
  readonly systemId: string;
  readonly caller: Caller | undefined;
  readonly canReceive: boolean;
  deliver(fields: Record<string, unknown>): Promise<DeliveryAnswer>;
}

export interface SmppDeliveriesDeps {
  outbox: Outbox;
  memos: KeyedCollection<SubmitMemo>;
  receivers: () => readonly SmppReceiver[];
  /** Whether an app's incoming rule gives it an incoming SMS (auth/appDirectory.ts). */
  hearsIncoming: IncomingRule;
  /** The number of the SIM an SMS came in on: what it reports, else what the user set for it. */
  receivingNumber: (deviceId: string, simNumber: number) => string | undefined;
  /** Whether incoming SMS are kept for receivers now (the server is on). */
  forwardIncoming: () => boolean;
  /** A long incoming SMS as one deliver_sm per part (`smpp.mo_as_parts`) rather than whole. */
  incomingAsParts: () => boolean;
  events: EventBus;
  clock: Clock;
  logger: Logger;
}

/** A deliver_sm with the key of the fact it reports: the same fact kept twice is one job. */
interface KeyedDelivery {
  key: string;
  delivery: HeldDelivery;
}

/** §5.2.12 esm_class bit 6: the short message begins with a UDH. */
const esmUdhIndicator = 0x40;
/** §5.2.12 esm_class bits 5–2 = 0001: an SMSC delivery receipt. */
const esmDeliveryReceipt = 0x04;
/** §5.2.19: 0 our default alphabet (GSM 03.38, unpacked), 8 UCS-2, 4 binary. */
const dataCodingDefault = 0;
const dataCodingUcs2 = 8;
const dataCodingBinary = 4;
/** short_message holds at most 254 octets (§5.2.21); longer text goes in message_payload (§5.3.2.32). */
const maxShortMessage = 254;

/**
 * deliver_sm to bound receivers: incoming SMS (MO) and delivery receipts. Each is a fact
 * recorded in the commit that stores what raised it (`EventBus.onRecord`, as the webhook
 * outbox), held while no receiver that may have it is bound, and retried with back-off until
 * one answers deliver_sm_resp with ESME_ROK. A receipt goes only to the login that submitted;
 * an incoming SMS only to a person's login or an app whose incoming rule hears it, as the
 * app's inbox and webhooks do.
 */
export class SmppDeliveries {
  private readonly unsubscribe: (() => void)[] = [];
  private readonly memoIds = new Set<string>();
  private stopServing?: () => Promise<void>;

  constructor(private readonly deps: SmppDeliveriesDeps) {}

  /**
   * What a submit asked for that its receipt needs: written in the caller's turn, so in the
   * commit of the message. The ids are also kept in memory, so the many updates of messages
   * that owe no receipt cost no read.
   */
  rememberSubmit(memo: SubmitMemo): Promise<void> {
    this.memoIds.add(memo.id);
    return this.deps.memos.put(memo);
  }

  start(): void {
    const { events } = this.deps;
    for (const memo of this.deps.memos.values()) this.memoIds.add(memo.id);
    this.stopServing = this.deps.outbox.serve<HeldDelivery>('smpp', {
      lanes: { order: 'parallel', inFlight: 8 },
      attempt: async ([job]) => (job ? [await this.attempt(job)] : []),
      // Hourly at most once the back-off is at its cap: about two days of tries.
      maxAttempts: () => 60,
      describe: (job) => `deliver_sm ${job.id}`,
    });
    this.unsubscribe.push(
      events.onRecord('message:received', (incoming) => {
        if (!this.deps.forwardIncoming()) return;
        for (const delivery of this.moDeliveries(incoming)) this.hold(delivery);
      }),
      events.onRecord('message:updated', ({ message }) => {
        const delivery = this.receiptDelivery(message);
        if (delivery) this.hold(delivery);
      }),
    );
  }

  async stop(): Promise<void> {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    await this.stopServing?.();
  }

  /** A receiver bound: what waits for one goes now. */
  pump(): void {
    this.deps.outbox.wake('smpp');
  }

  private hold({ key, delivery }: { key: string; delivery: HeldDelivery }): void {
    this.deps.outbox
      .hold({ id: `smpp:${key}`, kind: 'smpp', lane: laneOf(delivery), payload: delivery })
      .catch((error: unknown) =>
        this.deps.logger.error('a deliver_sm could not be kept', { key, error: String(error) }),
      );
  }

  private async attempt(job: OutboxJob<HeldDelivery>): Promise<AttemptOutcome> {
    const delivery = job.payload;
    const candidates = this.deps
      .receivers()
      .filter((receiver) => receiver.canReceive && this.mayHave(receiver, delivery));
    // Spread over the receivers of the same login.
    const receiver = candidates[job.attemptCount % Math.max(1, candidates.length)];
    if (!receiver) return { kind: 'wait', reason: 'no bound receiver may have it' };
    const fields: Record<string, unknown> = { ...delivery.fields };
    for (const name of delivery.base64Fields)
      fields[name] = Buffer.from(String(delivery.fields[name]), 'base64');
    const answer = await receiver.deliver(fields);
    // The session ended unanswered: it goes again on the next bind, not counted as a failure.
    if (answer === 'closed') return { kind: 'wait', reason: 'the session ended before it answered' };
    return answer === SmppStatus.ESME_ROK
      ? { kind: 'done', status: answer }
      : { kind: 'failed', status: answer, error: `deliver_sm_resp status 0x${answer.toString(16)}` };
  }

  private mayHave(receiver: SmppReceiver, delivery: HeldDelivery): boolean {
    const { caller } = receiver;
    if (!caller) return false;
    if (delivery.owner !== undefined) return callerKey(caller) === delivery.owner;
    if (delivery.systemId !== undefined) return receiver.systemId === delivery.systemId;
    if (delivery.type === 'mo' && caller.kind === 'app') {
      // An app hears what its incoming rule gives it; an MO kept before origins were recorded,
      // none (a person's login hears every one).
      return delivery.origin !== undefined && this.deps.hearsIncoming(caller.appId, delivery.origin);
    }
    return true;
  }

  private moDeliveries(incoming: IncomingMessageEvent): KeyedDelivery[] {
    const source = addressOfPhoneNumber(incoming.sender);
    const destination = addressOfPhoneNumber(
      incoming.recipient ?? this.deps.receivingNumber(incoming.deviceId, incoming.simNumber) ?? '',
    );
    if (destination.address === '') {
      this.deps.logger.warn(
        'an incoming SMS goes to SMPP clients with no destination_addr: its SIM reports no number; set "This SIM\'s number" on the Modems screen',
        { deviceId: incoming.deviceId },
      );
    }
    const origin: IncomingOrigin = {
      deviceId: incoming.deviceId,
      simNumber: incoming.simNumber,
      ...(incoming.repliesTo !== undefined ? { repliesTo: incoming.repliesTo } : {}),
    };
    const addressing = {
      source_addr_ton: source.ton,
      source_addr_npi: 1,
      source_addr: source.address,
      dest_addr_ton: destination.ton,
      dest_addr_npi: 1,
      destination_addr: destination.address,
      ...(incoming.port !== undefined ? { dest_port: incoming.port } : {}),
    };
    if (incoming.type === 'SMS' && this.deps.incomingAsParts()) {
      const segments = segmentText(incoming.content);
      if (segments.length > 1) return this.partDeliveries(incoming, origin, addressing, segments);
    }
    const { dataCoding, bytes } =
      incoming.type === 'DATA_SMS'
        ? { dataCoding: dataCodingBinary, bytes: Buffer.from(incoming.content, 'base64') }
        : encodeText(incoming.content);
    const long = bytes.length > maxShortMessage;
    const fields: Record<string, string | number> = {
      ...addressing,
      esm_class: 0,
      data_coding: dataCoding,
      short_message: long ? '' : bytes.toString('base64'),
      ...(long ? { message_payload: bytes.toString('base64') } : {}),
    };
    return [
      this.delivery(
        `mo:${incoming.id}`,
        'mo',
        fields,
        long ? ['short_message', 'message_payload'] : ['short_message'],
        { origin },
      ),
    ];
  }

  /**
   * One deliver_sm per SMS part, each with a concatenation UDH (TS 23.040 §9.2.3.24.1) and
   * esm_class's UDH indicator (§5.2.12); the reference is taken from the message id.
   */
  private partDeliveries(
    incoming: IncomingMessageEvent,
    origin: IncomingOrigin,
    addressing: Record<string, string | number>,
    segments: readonly Segment[],
  ): KeyedDelivery[] {
    const reference = Number.parseInt(createHash('sha256').update(incoming.id).digest('hex').slice(0, 2), 16);
    return segments.map((segment, index) => {
      const header = Buffer.from([5, 0x00, 3, reference, segments.length, index + 1]);
      const body =
        segment.encoding === 'gsm7'
          ? Buffer.from(segment.septets)
          : segment.encoding === 'ucs2'
            ? Buffer.from(segment.text, 'utf16le').swap16()
            : Buffer.from(segment.bytes);
      const sequence = String(index + 1).padStart(3, '0');
      return this.delivery(
        `mo:${incoming.id}:${sequence}`,
        'mo',
        {
          ...addressing,
          esm_class: esmUdhIndicator,
          data_coding: segment.encoding === 'gsm7' ? dataCodingDefault : dataCodingUcs2,
          short_message: Buffer.concat([header, body]).toString('base64'),
        },
        ['short_message'],
        { origin },
      );
    });
  }

  private receiptDelivery(message: MessageRecord): KeyedDelivery | undefined {
    if (!this.memoIds.has(message.id)) return undefined;
    const memo = this.deps.memos.get(message.id);
    if (!memo) return undefined;
    const outcome = receiptOutcome(message);
    if (!outcome) return undefined;
    // Dropped in the same batch as the receipt it turns into; "on failure only" wants no success.
    this.memoIds.delete(memo.id);
    void this.deps.memos.delete(memo.id);
    if (memo.receiptWanted === 2 && outcome.stat === 'DELIVRD') return undefined;
    const text = receiptText(memo, outcome, message.states[message.state] ?? this.deps.clock.now());
    return this.delivery(
      `receipt:${message.id}`,
      'receipt',
      {
        // §4.6.1: a receipt goes from the original destination back to the original source.
        source_addr: memo.destinationAddr,
        destination_addr: memo.sourceAddr,
        esm_class: esmDeliveryReceipt,
        data_coding: dataCodingDefault,
        short_message: Buffer.from(text, 'latin1').toString('base64'),
        receipted_message_id: message.id,
        message_state: outcome.messageState,
      },
      ['short_message'],
      memo.owner !== undefined
        ? { owner: memo.owner }
        : memo.systemId !== undefined
          ? { systemId: memo.systemId }
          : {},
    );
  }

  private delivery(
    key: string,
    type: HeldDelivery['type'],
    fields: HeldDelivery['fields'],
    base64Fields: string[],
    audience: Pick<HeldDelivery, 'owner' | 'systemId' | 'origin'>,
  ): KeyedDelivery {
    return { key, delivery: { type, fields, base64Fields, ...audience } };
  }
}

/** GSM 03.38 septets one per octet when every character has one, else UCS-2 big-endian. */
function encodeText(text: string): { dataCoding: number; bytes: Buffer } {
  const septets = toGsm7Characters(text);
  if (septets) return { dataCoding: dataCodingDefault, bytes: Buffer.from(septets.flat()) };
  return { dataCoding: dataCodingUcs2, bytes: Buffer.from(text, 'utf16le').swap16() };
}
