import type { Clock } from '../../clock/clock.js';
import { appOfCaller, type Caller } from '../../contract/domain/caller.js';
import type { MessageWait } from '../../contract/domain/holdReasons.js';
import type { MessageRecord, MmsAttachment } from '../../contract/domain/message.js';
import { type MessageView, toMessageView } from '../../contract/domain/messageView.js';
import type { MessageRequest } from '../../contract/schemas/messageSchemas.js';
import type { DeviceDirectory } from '../../devices/pool/deviceDirectory.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type {
  ListedMessages,
  MessageListForm,
  MessageQuery,
  MessageRepository,
} from '../../store/repositories.js';
import type { AppQuotas } from '../auth/appQuotas.js';
import type { EventBus } from '../events/eventBus.js';
import { BurstOrder } from './burstOrder.js';
import { createMessageIdGenerator } from './messageId.js';
import type { MessageLifecycle } from './messageLifecycle.js';
import { checkDistinct, checkPhoneNumbers, content, expiry, mmsAttachmentsOf } from './messageRequest.js';

export interface MessageServiceOptions {
  /** Most messages allowed in Pending at once; one more is refused with 503 (spec "Limits"). */
  maxPendingMessages: number;
}

/**
 * The scheduler, as the queue sees it. "Message queued" reaches it by this direct call only,
 * never through the event bus: the bus is for observers (the live stream, fleet reports, the
 * desk's conversations), and a missed or reordered event there costs a stale view; the
 * scheduler must hear of every message, in the turn it is written (see `store`), and also of a
 * rescheduled one, which raises no `message:enqueued`. A typed call keeps that dependency visible.
 */
export interface QueueWatcher {
  /**
   * A message was queued (written in the current batch: durable when it commits), or its time or
   * text changed: plan for it.
   */
  enqueued(message: MessageRecord): void;
  /** Why a queued message waits now; undefined for one no longer queued. */
  waitOf(message: MessageRecord): MessageWait | undefined;
}

export interface MessageServiceDependencies {
  repository: MessageRepository;
  lifecycle: MessageLifecycle;
  devices: DeviceDirectory;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  scheduler: QueueWatcher;
  /** Each app's quota, counted per recipient, whatever way in its messages came by. */
  quotas: Pick<AppQuotas, 'admit' | 'release'>;
  /** Id for messages the client sent without one; default: upstream-style 21 characters. */
  generateId?: () => string;
}

export interface EnqueueRequest {
  message: MessageRequest;
  /** Query `skipPhoneValidation=true`: numbers need not be E.164. */
  skipPhoneValidation: boolean;
  /** Query `deviceActiveWithin`: only devices seen within this many hours; 0 turns it off. */
  deviceActiveWithinHours: number;
  /** Set by fleet mode for a message the private server handed us. */
  source?: MessageRecord['source'];
  /** Set by the verification service: the text holds a code that only the modem may read. */
  purpose?: MessageRecord['purpose'];
  /**
   * The sender of a burst that must go out in the order it came (SMPP, e-mail): while its
   * previous message waits, this one takes that one's place (burstOrder.ts).
   */
  burst?: string;
}

const hourMs = 3_600_000;

/**
 * Enqueue, read, list and cancel outgoing messages (the API's view of the queue), for a caller
 * (domain/caller.ts): an app's messages are its own, counted on its quota per recipient, and
 * another app's message is not found for it, whichever way in it asks by.
 */
export class MessageService {
  private lastSequence: number;
  private readonly generateId: () => string;
  private readonly bursts: BurstOrder;

  constructor(
    private readonly deps: MessageServiceDependencies,
    private readonly options: MessageServiceOptions,
  ) {
    this.generateId = deps.generateId ?? createMessageIdGenerator(() => deps.clock.now());
    this.lastSequence = deps.repository.highestSequence();
    this.bursts = new BurstOrder((id) => deps.repository.get(id)?.state === 'Pending');
  }

  /**
   * Checks everything that depends on state (clock, devices, queue, ids), then stores the
   * message durably before resolving: a client told 202 never loses its message. Nothing is
   * stored when any check fails.
   */
  async enqueue(request: EnqueueRequest, caller: Caller): Promise<MessageRecord> {
    const appId = appOfCaller(caller);
    const record = this.prepare(request, appId, this.deps.clock.now(), new Set());
    this.checkQueueCapacity(1);
    this.admit(appId, [record]);
    await this.enqueuePrepared([record], mmsAttachmentsOf(request.message));
    // As stored now: a modem that took it in the insert's turn is in its commit (see `store`).
    return this.deps.repository.get(record.id) ?? record;
  }

  /**
   * What `enqueue` would store, after the same checks (the app's quota too), storing nothing and
   * keeping no place on the quota: a draft someone confirms later (docs/mcp.md).
   */
  check(request: EnqueueRequest, caller: Caller): MessageRecord {
    const appId = appOfCaller(caller);
    const record = this.prepare(request, appId, this.deps.clock.now(), new Set());
    this.checkQueueCapacity(1);
    this.admit(appId, [record]);
    if (appId !== undefined) this.deps.quotas.release(appId, recipientCount([record]));
    return record;
  }

  /**
   * Many messages in one action (a campaign), first step: checks every request and returns the
   * records, storing nothing; a failure names the request by index
   * (`messages[3].phoneNumbers[0]: …`). The last check counts the recipients on an app's quota
   * (QuotaExceeded, 429, when they do not fit). Hand the records to `enqueuePrepared` in the
   * same turn of the event loop, together with whatever else must be durable with them.
   */
  prepareAll(requests: readonly EnqueueRequest[], caller: Caller): MessageRecord[] {
    const now = this.deps.clock.now();
    const ids = new Set<string>();
    const appId = appOfCaller(caller);
    const records = requests.map((request, index) => {
      try {
        if (request.message.mmsMessage) {
          throw new GatewayError(
            ErrorCode.ValidationFailed,
            'mmsMessage: an MMS is sent on its own (POST /messages)',
            {
              field: 'mmsMessage',
            },
          );
        }
        return this.prepare(request, appId, now, ids);
      } catch (error) {
        throw error instanceof GatewayError ? prefixed(error, `messages[${index}]`) : error;
      }
    });
    this.checkQueueCapacity(records.length);
    this.admit(appId, records);
    return records;
  }

  /** Counts the records' recipients on the app's quota; throws QuotaExceeded when they do not fit. */
  private admit(appId: string | undefined, records: readonly MessageRecord[]): void {
    if (appId !== undefined) this.deps.quotas.admit(appId, recipientCount(records));
  }

  /**
   * Second step: stores the records of `prepareAll`. Inserted in this turn, they share one
   * group commit with the caller's other writes of the turn: all are queued or none, and an
   * app's quota gets back the places of messages that were not stored.
   */
  async enqueuePrepared(
    records: readonly MessageRecord[],
    attachments?: readonly MmsAttachment[],
  ): Promise<void> {
    try {
      await this.store(records, attachments);
    } catch (error) {
      const appId = records[0]?.appId;
      if (appId !== undefined) this.deps.quotas.release(appId, recipientCount(records));
      throw error;
    }
  }

  /** The stored form of one request, after every check; `ids` are those taken by this batch. */
  private prepare(
    request: EnqueueRequest,
    appId: string | undefined,
    now: number,
    ids: Set<string>,
  ): MessageRecord {
    const { message } = request;
    const isEncrypted = message.isEncrypted ?? false;
    if (!request.skipPhoneValidation && !isEncrypted) checkPhoneNumbers(message.phoneNumbers);
    checkDistinct(message.phoneNumbers);
    const validUntil = expiry(message, now);
    this.checkDevice(message.deviceId ?? undefined, request.deviceActiveWithinHours, now);
    this.checkSimSlot(message.deviceId ?? undefined, message.simNumber ?? undefined);
    // A generated id is the time plus 84 random bits: only a client's own id can already be taken
    // (and the store's unique key would still refuse a clash). A lookup is an index read per POST.
    const requestedId = message.id ?? undefined;
    const id = requestedId ?? this.generateId();
    if (ids.has(id) || (requestedId !== undefined && this.deps.repository.get(id))) {
      throw new GatewayError(ErrorCode.Conflict, `id: message ${id} already exists`, { field: 'id' });
    }
    ids.add(id);

    this.lastSequence = Math.max(this.lastSequence + 1, 1);
    const record: MessageRecord = {
      id,
      requestedDeviceId: message.deviceId ?? undefined,
      ...(request.source ? { source: request.source } : {}),
      ...(request.purpose ? { purpose: request.purpose } : {}),
      ...(appId !== undefined ? { appId } : {}),
      content: content(message),
      recipients: message.phoneNumbers.map((phoneNumber) => ({
        phoneNumber,
        state: 'Pending',
        updatedAt: now,
      })),
      simNumber: message.simNumber ?? undefined,
      withDeliveryReport: message.withDeliveryReport ?? true,
      priority: message.priority ?? 0,
      isEncrypted,
      validUntil,
      scheduleAt: message.scheduleAt ?? undefined,
      ...(message.ignoreOptOut ? { ignoreOptOut: true as const } : {}),
      deviceActiveWithinHours:
        request.deviceActiveWithinHours > 0 ? request.deviceActiveWithinHours : undefined,
      createdAt: now,
      sequence: this.lastSequence,
      states: { Pending: now },
      state: 'Pending',
    };
    return request.burst === undefined ? record : this.bursts.place(request.burst, record);
  }

  /**
   * Inserts in this turn (one group commit) and tells the scheduler at once: a modem that can
   * take a message now gets it in this same turn, so its Processed mark shares the insert's
   * commit and its fsync (a hand-over after the insert was durable cost a second commit and a
   * timer on the idle POST → PDU path). No send starts before that commit is durable, and a
   * failed commit takes the Processed mark back with the insert. Observers hear of each message
   * once it is durable: each announcement waits on its own insert, whose promise settles before
   * those of the batch's later writes (the Processed mark's "updated" included).
   */
  /** `attachments`: those of the one MMS among `records` (an MMS is enqueued alone). */
  private async store(
    records: readonly MessageRecord[],
    attachments?: readonly MmsAttachment[],
  ): Promise<void> {
    const announced = records.map((record) =>
      this.deps.repository
        .insert(record, record.content.kind === 'mms' ? attachments : undefined)
        .then(() => this.announce(record)),
    );
    for (const record of records) this.deps.scheduler.enqueued(record);
    await Promise.all(announced);
  }

  private announce(record: MessageRecord): void {
    this.deps.logger.info('message queued', {
      id: record.id,
      recipients: record.recipients.length,
      priority: record.priority,
      deviceId: record.requestedDeviceId,
    });
    this.deps.events.emit('message:enqueued', { message: record });
  }

  /** The message, if the caller may see it: an app sees only its own (NotFound for another's, as for none). */
  get(id: string, caller: Caller): MessageRecord {
    const message = this.deps.repository.get(id);
    const appId = appOfCaller(caller);
    if (!message || (appId !== undefined && message.appId !== appId)) {
      throw new GatewayError(ErrorCode.NotFound, `message ${id} not found`, { field: 'id' });
    }
    return message;
  }

  /** A page of the messages the caller may see: an app's own, or everyone's. */
  list(
    query: Omit<MessageQuery, 'appId'>,
    form: Pick<MessageListForm, 'withContent'>,
    caller: Caller,
  ): Promise<ListedMessages> {
    const appId = appOfCaller(caller);
    return this.deps.repository.list(appId === undefined ? query : { ...query, appId }, {
      ...form,
      unassignedDeviceId: this.unassignedDeviceId(),
    });
  }

  /** The API's message state (the 202, GET /messages/{id}, the live stream): one view everywhere. */
  view(message: MessageRecord, includeContent = true): MessageView {
    return toMessageView(message, includeContent, this.unassignedDeviceId());
  }

  /**
   * The device a message that none took or was asked for names: the only device there is, as
   * upstream's one device. With none or several, none, since no one of them is the message's
   * yet, and a client must never be given an id GET /devices does not list.
   */
  private unassignedDeviceId(): string | undefined {
    const ids = this.deps.devices.ids();
    return ids.length === 1 ? ids[0] : undefined;
  }

  /**
   * Edit rules live in MessageLifecycle; the scheduler then plans for the new time. A message
   * the caller may not see is not found, as for a cancel.
   */
  async editScheduled(
    id: string,
    edit: { scheduleAt?: number; text?: string },
    caller: Caller,
  ): Promise<MessageRecord> {
    const message = await this.deps.lifecycle.editScheduled(this.get(id, caller).id, edit);
    this.deps.scheduler.enqueued(message);
    return message;
  }

  /**
   * Why each of the caller's queued messages among `ids` waits, by id; the others (not queued,
   * not the caller's, unknown) are left out.
   */
  waits(ids: readonly string[], caller: Caller): Record<string, MessageWait> {
    const appId = appOfCaller(caller);
    // Entries, not assignments: an id such as "__proto__" stays an id.
    const waits: [string, MessageWait][] = [];
    for (const id of ids) {
      const message = this.deps.repository.get(id);
      if (!message || (appId !== undefined && message.appId !== appId)) continue;
      const wait = this.deps.scheduler.waitOf(message);
      if (wait) waits.push([id, wait]);
    }
    return Object.fromEntries(waits);
  }

  /**
   * Cancel rules live in MessageLifecycle: Pending → Cancelled, Cancelled again → same, else 400.
   * A message the caller may not see is not found.
   */
  async cancel(id: string, caller: Caller): Promise<MessageRecord> {
    return this.deps.lifecycle.cancel(this.get(id, caller).id);
  }

  /**
   * A named device must exist (400: the request is wrong, not the gateway). With
   * `deviceActiveWithin`, some candidate must have been seen recently (503: try later).
   */
  private checkDevice(deviceId: string | undefined, activeWithinHours: number, now: number): void {
    const devices = this.deps.devices;
    if (deviceId !== undefined && !devices.get(deviceId)) {
      throw new GatewayError(ErrorCode.NoDeviceAvailable, `deviceId: device ${deviceId} is not known`, {
        field: 'deviceId',
      });
    }
    if (activeWithinHours <= 0) return;
    const candidates =
      deviceId === undefined ? devices.list() : devices.list().filter((d) => d.id === deviceId);
    const since = now - activeWithinHours * hourMs;
    if (!candidates.some((device) => device.lastSeen >= since)) {
      throw new GatewayError(
        ErrorCode.NoDeviceAvailable,
        `no device was active within the last ${activeWithinHours} hours`,
      );
    }
  }

  /**
   * `simNumber` must name a slot the chosen modem (or, unpinned, some modem) has. A device
   * whose SIM details were never read counts as a one-slot modem.
   */
  private checkSimSlot(deviceId: string | undefined, simNumber: number | undefined): void {
    if (simNumber === undefined) return;
    const candidates = deviceId === undefined ? this.deps.devices.list() : [this.deps.devices.get(deviceId)];
    const hasSlot = candidates.some((device) =>
      device && device.simCards.length > 0
        ? device.simCards.some((sim) => sim.simNumber === simNumber)
        : simNumber === 1,
    );
    if (!hasSlot) {
      const where = deviceId === undefined ? 'no modem has' : `device ${deviceId} has no`;
      throw new GatewayError(ErrorCode.ValidationFailed, `simNumber: ${where} SIM slot ${simNumber}`, {
        field: 'simNumber',
      });
    }
  }

  /** Throws QueueFull (503) when `adding` more pending messages would pass the queue's limit. */
  checkQueueCapacity(adding: number): void {
    const pending = this.deps.repository.countInState('Pending');
    if (pending + adding > this.options.maxPendingMessages) {
      throw new GatewayError(
        ErrorCode.QueueFull,
        adding === 1
          ? `the queue holds ${pending} pending messages, its limit; ensure a modem is online and try later`
          : `the queue holds ${pending} pending messages; ${adding} more would pass its limit of ${this.options.maxPendingMessages}`,
      );
    }
  }
}

function recipientCount(records: readonly MessageRecord[]): number {
  return records.reduce((total, record) => total + record.recipients.length, 0);
}

/** The same error, its message and field under `prefix` (`messages[3].phoneNumbers[0]`). */
function prefixed(error: GatewayError, prefix: string): GatewayError {
  return new GatewayError(error.code, `${prefix}.${error.message}`, {
    field: error.field === undefined ? prefix : `${prefix}.${error.field}`,
    cause: error,
  });
}
