import type { ManualClock } from '../../server/clock/manualClock.js';
import type { DeviceInfo, ModemStatus } from '../../server/contract/domain/device.js';
import type { MessageRecord, MessageState, MmsAttachment } from '../../server/contract/domain/message.js';
import type { ProcessingOrder } from '../../server/contract/domain/messageOrder.js';
import { toMessageView } from '../../server/contract/domain/messageView.js';
import type { DeviceDirectory } from '../../server/devices/pool/deviceDirectory.js';
import type { OutboundModem, SendRequest, SendResult } from '../../server/devices/pool/outboundModem.js';
import { ErrorCode, GatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { EventBus } from '../../server/services/events/eventBus.js';
import { MessageLifecycle } from '../../server/services/messages/messageLifecycle.js';
import {
  Scheduler,
  type SchedulerDeps,
  type SendingPolicy,
} from '../../server/services/scheduler/scheduler.js';
import type {
  AwaitingReports,
  HandOver,
  ListedMessages,
  MessageListForm,
  MessageQuery,
  MessageRepository,
  WaitingDeadlines,
  WaitingEntry,
} from '../../server/store/repositories.js';

/**
 * A queued message's place as text that sorts in queue order, built as the store's `waiting`
 * table builds it (server/store/sqlite/waitingQueue.ts): priority, then the place of the message
 * or of its bulk send, then its sequence.
 */
function queueKey(order: ProcessingOrder, record: MessageRecord): string {
  const place = BigInt(record.batchSequence ?? record.sequence);
  const digits = (value: bigint | number, width: number) => String(value).padStart(width, '0');
  const placeField = order === 'FIFO' ? place : 9_999_999_999_999_999n - place;
  return digits(127 - record.priority, 3) + digits(placeField, 16) + digits(record.sequence, 16);
}

/**
 * In-memory MessageRepository with the contract's semantics (memory changes synchronously,
 * promise settles after), and an index of Pending ids so 10,000-message runs stay fast.
 */
export class MemoryMessageRepository implements MessageRepository {
  private readonly records = new Map<string, MessageRecord>();
  private readonly pendingIds = new Set<string>();
  private revision = 0;

  recipientsOfAppSince(appId: string, since: number): number {
    let total = 0;
    for (const record of this.records.values())
      if (record.appId === appId && record.createdAt >= since) total += record.recipients.length;
    return total;
  }

  private readonly attachments = new Map<string, readonly MmsAttachment[]>();

  insert(record: MessageRecord, attachments: readonly MmsAttachment[] = []): Promise<void> {
    if (this.records.has(record.id)) {
      return Promise.reject(new GatewayError(ErrorCode.Conflict, 'id exists', { field: 'id' }));
    }
    this.put(record);
    if (attachments.length > 0) this.attachments.set(record.id, attachments);
    return Promise.resolve();
  }

  attachmentsOf(id: string): MmsAttachment[] {
    return [...(this.attachments.get(id) ?? [])];
  }

  update(record: MessageRecord, inCommit?: () => void): Promise<void> {
    if (!this.records.has(record.id))
      return Promise.reject(new GatewayError(ErrorCode.NotFound, 'no such id'));
    this.put(record);
    inCommit?.();
    return Promise.resolve();
  }

  get(id: string): MessageRecord | undefined {
    const record = this.records.get(id);
    return record && structuredClone(record);
  }

  list(_query: MessageQuery, form: MessageListForm): Promise<ListedMessages> {
    const views = [...this.records.values()].map((record) =>
      toMessageView(record, form.withContent, form.unassignedDeviceId),
    );
    return Promise.resolve({ total: views.length, json: JSON.stringify(views) });
  }

  pendingRevision(): number {
    return this.revision;
  }

  isPending(id: string): boolean {
    return this.pendingIds.has(id);
  }

  waiting(order: ProcessingOrder, now: number, limit: number, after = ''): WaitingEntry[] {
    const entries: WaitingEntry[] = [];
    for (const id of this.pendingIds) {
      const record = this.records.get(id);
      if (
        !record ||
        (record.scheduleAt ?? now) > now ||
        (record.validUntil ?? Number.POSITIVE_INFINITY) <= now
      )
        continue;
      const key = queueKey(order, record);
      if (key > after) entries.push({ key, record: structuredClone(record) });
    }
    entries.sort((left, right) => (left.key < right.key ? -1 : 1));
    return entries.slice(0, limit);
  }

  expiredWaiting(now: number): MessageRecord[] {
    return this.queued().filter((record) => record.validUntil !== undefined && record.validUntil <= now);
  }

  waitingDeadlines(now: number): WaitingDeadlines {
    const queued = this.queued();
    return {
      nextExpiry: Math.min(...queued.map((record) => record.validUntil ?? Number.POSITIVE_INFINITY)),
      nextScheduled: Math.min(
        ...queued.map((record) =>
          record.scheduleAt !== undefined && record.scheduleAt > now
            ? record.scheduleAt
            : Number.POSITIVE_INFINITY,
        ),
      ),
    };
  }

  private queued(): MessageRecord[] {
    return [...this.pendingIds].flatMap((id) => this.records.get(id) ?? []);
  }

  awaitingReports(sentFrom: number, sentBefore: number): AwaitingReports[] {
    const byDevice = new Map<string, AwaitingReports>();
    for (const record of this.records.values()) {
      const sentAt = record.states.Sent;
      if (record.state !== 'Sent' || !record.withDeliveryReport || record.deviceId === undefined) continue;
      if (sentAt === undefined || sentAt < sentFrom || sentAt >= sentBefore) continue;
      const entry = byDevice.get(record.deviceId) ?? {
        deviceId: record.deviceId,
        count: 0,
        oldestSentAt: sentAt,
      };
      entry.count++;
      entry.oldestSentAt = Math.min(entry.oldestSentAt, sentAt);
      byDevice.set(record.deviceId, entry);
    }
    return [...byDevice.values()];
  }

  handOversBetween(after: number, before: number): HandOver[] {
    return [...this.records.values()].flatMap((record) => {
      const at = record.states.Processed;
      const handedOver = ['Processed', 'Sent', 'Delivered', 'Failed'].includes(record.state);
      return handedOver && record.deviceId !== undefined && at !== undefined && at > after && at < before
        ? [{ deviceId: record.deviceId, at }]
        : [];
    });
  }

  countInState(state: MessageState): number {
    return this.inState(state).length;
  }

  inState(state: MessageState): MessageRecord[] {
    return [...this.records.values()].filter((record) => record.state === state);
  }

  countFailedSince(since: number): number {
    return this.inState('Failed').filter((record) => (record.states.Failed ?? 0) >= since).length;
  }

  count(): number {
    return this.records.size;
  }

  highestSequence(): number {
    return Math.max(0, ...[...this.records.values()].map((record) => record.sequence));
  }

  pruneOlderThan(): Promise<number> {
    return Promise.resolve(0);
  }

  private put(record: MessageRecord): void {
    const copy = structuredClone(record);
    this.records.set(copy.id, copy);
    if (copy.state === 'Pending') {
      this.pendingIds.add(copy.id);
      this.revision++;
    } else this.pendingIds.delete(copy.id);
  }
}

export type SendBehaviour = (request: SendRequest) => SendResult | GatewayError;

/** A modem that takes `sendMs` of clock time per recipient and records what it was asked. */
export class FakeModem implements OutboundModem {
  status: ModemStatus = 'ready';
  lastSeen: number;
  readonly sent: { at: number; request: SendRequest }[] = [];
  private nextReference = 0;
  behaviour: SendBehaviour = () => ({ references: [this.nextReference++ % 256] });

  constructor(
    readonly deviceId: string,
    private readonly clock: ManualClock,
    readonly simSlots = 1,
    private readonly sendMs = 1000,
  ) {
    this.lastSeen = clock.now();
  }

  send(request: SendRequest): Promise<SendResult> {
    const startedAt = this.clock.now();
    return new Promise((resolve, reject) => {
      this.clock.setTimer(() => {
        const outcome = this.behaviour(request);
        if (outcome instanceof GatewayError) {
          reject(outcome);
          return;
        }
        this.sent.push({ at: startedAt, request });
        resolve(outcome);
      }, this.sendMs);
    });
  }
}

/** Directory whose online set the test edits; `setOnline` notifies like the modem pool would. */
export class FakeDeviceDirectory implements DeviceDirectory {
  private readonly modems = new Map<string, { modem: OutboundModem; online: boolean; simulated: boolean }>();
  private readonly listeners = new Set<(deviceId: string) => void>();

  add(modem: OutboundModem, online = true, simulated = false): void {
    this.modems.set(modem.deviceId, { modem, online, simulated });
  }

  setOnline(deviceId: string, online: boolean): void {
    const entry = this.modems.get(deviceId);
    if (!entry) throw new Error(`unknown modem ${deviceId}`);
    entry.online = online;
    for (const listener of this.listeners) listener(deviceId);
  }

  /** Only the fields the scheduler reads (whether a modem is simulated, its status). */
  list(): DeviceInfo[] {
    return [...this.modems.values()].map(({ modem, online, simulated }) => ({
      id: modem.deviceId,
      name: modem.deviceId,
      createdAt: 0,
      updatedAt: 0,
      lastSeen: modem.lastSeen,
      simCards: [],
      modem: { port: modem.deviceId, simulated, status: online ? modem.status : 'offline' },
    }));
  }

  ids(): string[] {
    return [...this.modems.keys()];
  }

  get(id: string): DeviceInfo | undefined {
    return this.list().find((device) => device.id === id);
  }

  online(): OutboundModem[] {
    return [...this.modems.values()].filter((entry) => entry.online).map((entry) => entry.modem);
  }

  forget(): Promise<boolean> {
    return Promise.resolve(false);
  }

  refreshInbox(): Promise<void> {
    return Promise.resolve();
  }

  enterPin(): Promise<void> {
    return Promise.resolve();
  }

  onChange(listener: (deviceId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export const defaultPolicy: SendingPolicy = {
  processingOrder: 'LIFO',
  sendIntervalMinSeconds: null,
  sendIntervalMaxSeconds: null,
  limitPeriod: 'Disabled',
  limitValue: null,
  simSelectionMode: 'OSDefault',
  resendInterrupted: false,
  paused: false,
  workHours: null,
};

export interface MessageSpec {
  id: string;
  phoneNumbers?: string[];
  priority?: number;
  validUntil?: number;
  scheduleAt?: number;
  requestedDeviceId?: string;
  simNumber?: number;
  deviceActiveWithinHours?: number;
  isEncrypted?: boolean;
  text?: string;
}

/** A freshly enqueued message, as the message service would store it. */
export function pendingMessage(spec: MessageSpec, sequence: number, now: number): MessageRecord {
  const record: MessageRecord = {
    id: spec.id,
    content: { kind: 'text', text: spec.text ?? `text of ${spec.id}` },
    recipients: (spec.phoneNumbers ?? ['+15550000001']).map((phoneNumber) => ({
      phoneNumber,
      state: 'Pending',
    })),
    withDeliveryReport: true,
    priority: spec.priority ?? 0,
    isEncrypted: spec.isEncrypted ?? false,
    createdAt: now,
    sequence,
    states: { Pending: now },
    state: 'Pending',
  };
  if (spec.validUntil !== undefined) record.validUntil = spec.validUntil;
  if (spec.scheduleAt !== undefined) record.scheduleAt = spec.scheduleAt;
  if (spec.requestedDeviceId !== undefined) record.requestedDeviceId = spec.requestedDeviceId;
  if (spec.simNumber !== undefined) record.simNumber = spec.simNumber;
  if (spec.deviceActiveWithinHours !== undefined)
    record.deviceActiveWithinHours = spec.deviceActiveWithinHours;
  return record;
}

/** Repository, lifecycle, directory and scheduler wired as `server/index.ts` would. */
export class SchedulerHarness {
  readonly repository: MemoryMessageRepository;
  readonly lifecycle: MessageLifecycle;
  readonly devices = new FakeDeviceDirectory();
  readonly scheduler: Scheduler;
  policy: SendingPolicy;
  private sequence = 0;

  constructor(
    readonly clock: ManualClock,
    options: {
      policy?: Partial<SendingPolicy>;
      repository?: MemoryMessageRepository;
      random?: () => number;
      decrypt?: (message: MessageRecord) => MessageRecord;
      mayRoute?: SchedulerDeps['mayRoute'];
    } = {},
  ) {
    this.repository = options.repository ?? new MemoryMessageRepository();
    this.lifecycle = new MessageLifecycle(this.repository, new EventBus(), clock, silentLogger);
    this.policy = { ...defaultPolicy, ...options.policy };
    this.sequence = this.repository.count();
    this.scheduler = new Scheduler({
      repository: this.repository,
      lifecycle: this.lifecycle,
      devices: this.devices,
      policy: () => this.policy,
      decrypt: options.decrypt ?? ((message) => message),
      clock,
      logger: silentLogger,
      ...(options.random ? { random: options.random } : {}),
      ...(options.mayRoute ? { mayRoute: options.mayRoute } : {}),
    });
  }

  modem(
    deviceId: string,
    options: { simSlots?: number; sendMs?: number; online?: boolean; simulated?: boolean } = {},
  ): FakeModem {
    const modem = new FakeModem(deviceId, this.clock, options.simSlots, options.sendMs);
    this.devices.add(modem, options.online ?? true, options.simulated ?? false);
    return modem;
  }

  async enqueue(...specs: MessageSpec[]): Promise<void> {
    // As the API does (MessageService.store): the messages are written in one turn and told to
    // the scheduler in that turn, then become durable together.
    const messages = specs.map((spec) => pendingMessage(spec, ++this.sequence, this.clock.now()));
    const durable = messages.map((message) => this.repository.insert(message));
    for (const message of messages) this.scheduler.enqueued(message);
    await Promise.all(durable);
  }

  setPolicy(change: Partial<SendingPolicy>): void {
    this.policy = { ...this.policy, ...change };
    this.scheduler.wake();
  }

  message(id: string): MessageRecord {
    const record = this.repository.get(id);
    if (!record) throw new Error(`no message ${id}`);
    return record;
  }
}

/** Ids in the order a modem (or all given modems) was asked to send them. */
export function sentIds(...modems: FakeModem[]): string[] {
  return modems
    .flatMap((modem) => modem.sent)
    .sort((left, right) => left.at - right.at)
    .map((entry) => entry.request.messageId);
}
