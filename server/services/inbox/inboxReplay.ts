import type { Clock } from '../../clock/clock.js';
import type { IncomingMessageEvent, IncomingRecord } from '../../contract/domain/incoming.js';
import type { WebhookDeliveryMode } from '../../contract/domain/webhookEvents.js';
import { maxBatchMessages } from '../../contract/domain/webhookEvents.js';
import type { DeviceDirectory } from '../../devices/pool/deviceDirectory.js';
import { describeError, ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { InboxRepository } from '../../store/repositories.js';
import type { EventBus } from '../events/eventBus.js';

/** `webhookDelivery` wins when given; older clients only send `triggerWebhooks`. */
export function deliveryMode(
  webhookDelivery: WebhookDeliveryMode | null | undefined,
  triggerWebhooks: boolean | null | undefined,
  triggerByDefault: boolean,
): WebhookDeliveryMode {
  if (webhookDelivery != null) return webhookDelivery;
  return (triggerWebhooks ?? triggerByDefault) ? 'Individual' : 'Disabled';
}

export interface InboxPeriod {
  since?: number;
  until?: number;
  deviceId?: string;
}

export interface InboxReplayDependencies {
  inbox: InboxRepository;
  devices: DeviceDirectory;
  events: EventBus;
  clock: Clock;
  logger: Logger;
}

/** Pages through the inbox this many records at a time, so an export never holds it all. */
const pageSize = 500;
/** A refresh asked to trigger webhooks without a period covers the last day. */
const defaultRefreshPeriodMs = 24 * 3_600_000;

/**
 * POST /inbox/refresh and the inbox export (spec "Events": one `sms:received` webhook per inbox
 * message of the period). Replaying raises `inbox:replayed` for stored messages: the webhook
 * dispatcher turns each into a delivery, while the UI and desktop notifications, which listen to
 * `message:received`, do not mistake them for new arrivals. Both answer 202 at once and work in the background,
 * because reading a modem's storage (AT+CMGL) can take many seconds.
 */
export class InboxReplay {
  constructor(private readonly deps: InboxReplayDependencies) {}

  /** Re-reads modem storage; then, when asked, replays the period's messages as webhooks. */
  refresh(period: InboxPeriod, mode: WebhookDeliveryMode): void {
    this.checkDevice(period.deviceId);
    const requestedAt = this.deps.clock.now();
    void this.deps.devices
      .refreshInbox(period.deviceId)
      .then(() => {
        if (mode === 'Disabled') return;
        const since = period.since ?? requestedAt - defaultRefreshPeriodMs;
        return this.replay({ ...period, since, until: period.until ?? this.deps.clock.now() }, mode);
      })
      .catch((error: unknown) =>
        this.deps.logger.warn('inbox refresh failed', {
          deviceId: period.deviceId,
          error: describeError(error),
        }),
      );
  }

  /** Replays every stored message of the period as webhooks; returns how many. */
  export(period: InboxPeriod, mode: WebhookDeliveryMode): Promise<number> {
    this.checkDevice(period.deviceId);
    if (mode === 'Disabled') return Promise.resolve(0);
    return this.replay(period, mode);
  }

  private async replay(period: InboxPeriod, mode: Exclude<WebhookDeliveryMode, 'Disabled'>): Promise<number> {
    const batches = new Map<string, IncomingMessageEvent[]>();
    let replayed = 0;
    for (let offset = 0; ; offset += pageSize) {
      const page = await this.deps.inbox.list({
        from: period.since,
        // The period's end is inclusive for clients; the store's upper bound is exclusive.
        to: period.until === undefined ? undefined : period.until + 1,
        deviceId: period.deviceId,
        limit: pageSize,
        offset,
      });
      for (const record of page.items) {
        const incoming = toIncomingEvent(record);
        if (!incoming) continue;
        replayed++;
        if (mode === 'Individual') this.deps.events.emit('inbox:replayed', incoming);
        else addToBatch(batches, incoming);
      }
      if (page.items.length < pageSize) break;
    }
    for (const messages of batches.values()) this.emitBatches(messages);
    this.deps.logger.info('inbox messages replayed as webhooks', { ...period, mode, count: replayed });
    return replayed;
  }

  /**
   * The store lists newest first; a batch is oldest first (upstream's "ordered list"), so a
   * group is reversed once it is complete. A group holds only the period's SMS of one device.
   */
  private emitBatches(newestFirst: IncomingMessageEvent[]): void {
    const oldestFirst = newestFirst.reverse();
    for (let start = 0; start < oldestFirst.length; start += maxBatchMessages) {
      const messages = oldestFirst.slice(start, start + maxBatchMessages);
      const [first] = messages;
      if (!first) continue;
      this.deps.events.emit('inbox:batchReplayed', { deviceId: first.deviceId, type: first.type, messages });
    }
  }

  private checkDevice(deviceId: string | undefined): void {
    if (deviceId !== undefined && !this.deps.devices.get(deviceId)) {
      throw new GatewayError(ErrorCode.NoDeviceAvailable, `deviceId: device ${deviceId} is not known`, {
        field: 'deviceId',
      });
    }
  }
}

/** MMS records have no `message:received` form (we never receive MMS over AT). */
function toIncomingEvent(record: IncomingRecord): IncomingMessageEvent | undefined {
  if (record.type !== 'SMS' && record.type !== 'DATA_SMS') return undefined;
  return {
    id: record.id,
    type: record.type,
    deviceId: record.deviceId,
    simNumber: record.simNumber,
    sender: record.sender,
    recipient: record.recipient,
    content: record.content,
    port: record.port,
    receivedAt: record.receivedAt,
    repliesTo: record.repliesTo,
  };
}

function addToBatch(batches: Map<string, IncomingMessageEvent[]>, incoming: IncomingMessageEvent): void {
  const key = `${incoming.deviceId}\u0000${incoming.type}`;
  const group = batches.get(key);
  if (group) group.push(incoming);
  else batches.set(key, [incoming]);
}
