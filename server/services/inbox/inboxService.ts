import { createHash } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import type {
  AssembledSms,
  IncomingMessageEvent,
  IncomingRecord,
  PendingPartsStore,
  ReceivedPart,
  ReceivedSms,
} from '../../contract/domain/incoming.js';
import type { Logger } from '../../logging/logger.js';
import type { InboxRepository } from '../../store/repositories.js';
import type { EventBus } from '../events/eventBus.js';
import { Reassembler } from './reassembly.js';

export interface InboxServiceOptions {
  repository: InboxRepository;
  events: EventBus;
  pendingParts: PendingPartsStore;
  clock: Clock;
  logger: Logger;
  /** How long to wait for the missing parts of a multipart message, in ms. Default 24 h. */
  partTimeoutMs?: number;
  /** The app whose message the number received last (the send log); absent: no apps. */
  lastAppTo?: (phoneNumber: string) => string | undefined;
}

/**
 * Where received SMS end up: single-part messages are stored at once, parts of concatenated
 * ones go through the reassembler first. `receive` resolves only when the message (or the
 * part) is durably kept, which is what allows the modem driver to delete it from the SIM.
 */
export class InboxService {
  private readonly reassembler: Reassembler;
  private readonly logger: Logger;

  constructor(private readonly options: InboxServiceOptions) {
    this.logger = options.logger.child('inbox');
    const reassemblerOptions: ConstructorParameters<typeof Reassembler>[0] = {
      store: options.pendingParts,
      clock: options.clock,
      logger: this.logger,
      deliver: (message) => this.store(message).then(() => undefined),
    };
    if (options.partTimeoutMs !== undefined) reassemblerOptions.partTimeoutMs = options.partTimeoutMs;
    this.reassembler = new Reassembler(reassemblerOptions);
  }

  /** Loads the parts kept before a restart; call before the modems start. */
  start(): Promise<void> {
    return this.reassembler.start();
  }

  /** Resolves once pending writes finished. */
  stop(): Promise<void> {
    return this.reassembler.stop();
  }

  async receive(deviceId: string, simNumber: number, sms: ReceivedSms): Promise<void> {
    const part: ReceivedPart = {
      partNumber: sms.concatenation?.partNumber ?? 1,
      data: Buffer.from(sms.bytes).toString('base64'),
      sentAt: sms.timestamp.epochMs,
      receivedAt: this.options.clock.now(),
    };
    if (sms.text !== undefined) part.text = sms.text;
    const port = sms.ports?.destination;
    const concatenation = sms.concatenation;
    if (concatenation && concatenation.partsCount > 1) {
      await this.reassembler.add({
        deviceId,
        simNumber,
        sender: sms.sender.number,
        reference: concatenation.reference,
        partsCount: concatenation.partsCount,
        ...(port === undefined ? {} : { port }),
        part,
      });
      return;
    }
    const message: AssembledSms = {
      deviceId,
      simNumber,
      sender: sms.sender.number,
      parts: [part],
      incomplete: false,
    };
    if (port !== undefined) message.port = port;
    await this.store(message);
  }

  /**
   * Stores the message; records and then emits `message:received` only when it was not stored
   * before (recorded inside the commit that stores it, emitted once that commit is durable).
   */
  private async store(message: AssembledSms): Promise<boolean> {
    const record = toIncomingRecord(message, this.options.clock.now());
    const repliesTo = this.options.lastAppTo?.(record.sender);
    if (repliesTo !== undefined) record.repliesTo = repliesTo;
    const event = incomingEventOf(record);
    const stored = await this.options.repository.insert(record, () =>
      this.options.events.record('message:received', event),
    );
    if (!stored) {
      this.logger.info('message already in the inbox; not stored again', { id: record.id });
      return false;
    }
    this.logger.info('message received', {
      id: record.id,
      type: record.type,
      deviceId: record.deviceId,
      parts: message.parts.length,
      incomplete: message.incomplete,
    });
    this.options.events.emit('message:received', event);
    return true;
  }
}

function incomingEventOf(record: IncomingRecord): IncomingMessageEvent {
  const event: IncomingMessageEvent = {
    id: record.id,
    type: record.type === 'DATA_SMS' ? 'DATA_SMS' : 'SMS',
    deviceId: record.deviceId,
    simNumber: record.simNumber,
    sender: record.sender,
    content: record.content,
    receivedAt: record.receivedAt,
  };
  if (record.port !== undefined) event.port = record.port;
  if (record.repliesTo !== undefined) event.repliesTo = record.repliesTo;
  return event;
}

/**
 * A message is text when every part decoded to text and it has no port; otherwise it is data
 * (TS 23.040 §9.2.3.24.4: a port addresses an application, the body is its bytes) stored as
 * Base64 of the concatenated user data.
 */
export function toIncomingRecord(message: AssembledSms, receivedAt: number): IncomingRecord {
  const isText = message.port === undefined && message.parts.every((part) => part.text !== undefined);
  const content = isText
    ? message.parts.map((part) => part.text ?? '').join('')
    : Buffer.concat(message.parts.map((part) => Buffer.from(part.data, 'base64'))).toString('base64');
  const sentAt = Math.min(...message.parts.map((part) => part.sentAt));
  const record: IncomingRecord = {
    id: incomingId(message.deviceId, message.sender, sentAt, content),
    type: isText ? 'SMS' : 'DATA_SMS',
    deviceId: message.deviceId,
    simNumber: message.simNumber,
    sender: message.sender,
    content,
    sentAt,
    receivedAt,
  };
  if (message.port !== undefined) record.port = message.port;
  if (message.incomplete) record.incomplete = true;
  return record;
}

/** docs/decisions.md#inbox: the id is derived from the content, so the same SMS read twice is stored once. */
export function incomingId(deviceId: string, sender: string, sentAt: number, content: string): string {
  return createHash('sha256')
    .update(JSON.stringify([deviceId, sender, sentAt, content]))
    .digest('base64url')
    .slice(0, 22);
}
