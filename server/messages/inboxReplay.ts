import type { Clock } from '../clock/clock.js';
import { describeError, ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { EventBus } from '../events/eventBus.js';
import type { Logger } from '../logging/logger.js';
import type { DeviceDirectory } from '../modem/deviceDirectory.js';
import type { InboxRepository, IncomingRecord } from '../store/repositories.js';

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
  refresh(period: InboxPeriod, triggerWebhooks: boolean): void {
    this.checkDevice(period.deviceId);
    const requestedAt = this.deps.clock.now();
    void this.deps.devices
      .refreshInbox(period.deviceId)
      .then(() => {
        if (!triggerWebhooks) return;
        const since = period.since ?? requestedAt - defaultRefreshPeriodMs;
        this.replay({ ...period, since, until: period.until ?? this.deps.clock.now() });
      })
      .catch((error: unknown) =>
        this.deps.logger.warn('inbox refresh failed', {
          deviceId: period.deviceId,
          error: describeError(error),
        }),
      );
  }

  /** Replays every stored message of the period as `inbox:replayed`; returns how many. */
  export(period: InboxPeriod, triggerWebhooks: boolean): number {
    this.checkDevice(period.deviceId);
    if (!triggerWebhooks) return 0;
    return this.replay(period);
  }

  private replay(period: InboxPeriod): number {
    let replayed = 0;
    for (let offset = 0; ; offset += pageSize) {
      const page = this.deps.inbox.list({
        from: period.since,
        // The period's end is inclusive for clients; the store's upper bound is exclusive.
        to: period.until === undefined ? undefined : period.until + 1,
        deviceId: period.deviceId,
        limit: pageSize,
        offset,
      });
      for (const record of page.items) {
        if (this.emit(record)) replayed++;
      }
      if (page.items.length < pageSize) break;
    }
    this.deps.logger.info('inbox messages replayed as webhooks', { ...period, count: replayed });
    return replayed;
  }

  /** MMS records have no `message:received` form (we never receive MMS over AT). */
  private emit(record: IncomingRecord): boolean {
    if (record.type !== 'SMS' && record.type !== 'DATA_SMS') return false;
    this.deps.events.emit('inbox:replayed', {
      id: record.id,
      type: record.type,
      deviceId: record.deviceId,
      simNumber: record.simNumber,
      sender: record.sender,
      recipient: record.recipient,
      content: record.content,
      port: record.port,
      receivedAt: record.receivedAt,
    });
    return true;
  }

  private checkDevice(deviceId: string | undefined): void {
    if (deviceId !== undefined && !this.deps.devices.get(deviceId)) {
      throw new GatewayError(ErrorCode.NoDeviceAvailable, `deviceId: device ${deviceId} is not known`, {
        field: 'deviceId',
      });
    }
  }
}
