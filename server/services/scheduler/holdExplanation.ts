import type { MessageRecord } from '../../contract/domain/message.js';
import { firstInOrder, type ProcessingOrder } from '../../contract/domain/messageOrder.js';
import type { OutboundModem } from '../../devices/pool/outboundModem.js';
import type { Hold } from './holdReason.js';
import { type ModemAvailability, ownLimitsAt } from './modemAvailability.js';
import { carries } from './modemSelection.js';
import type { Limits, SendLimits } from './sendLimits.js';

/** What the scheduler knows at one instant, to say why the queue is not moving. */
export interface HoldContext {
  pool: ModemAvailability;
  limits: SendLimits;
  limit: Limits;
  now: number;
  /** Whether routing lets a slot of the modem carry the message (`SchedulerDeps.mayRoute`). */
  mayRoute: (message: MessageRecord, modem: OutboundModem) => boolean;
  /** Why routing keeps the message off these modems, which could carry it (`SchedulerDeps.routeHold`). */
  routeHold: (
    message: MessageRecord,
    able: readonly OutboundModem[],
    online: readonly OutboundModem[],
  ) => Hold | undefined;
}

/**
 * Why the first message in queue order (of `waiting`) is not being sent, for the status and the
 * health check; undefined when it is simply next in line. `nextScheduled`: the earliest
 * `scheduleAt` still ahead, the answer when nothing is ready.
 */
export function explainHold(
  waiting: readonly MessageRecord[],
  online: readonly OutboundModem[],
  nextScheduled: number,
  order: ProcessingOrder,
  context: HoldContext,
): Hold | undefined {
  const { pool, now } = context;
  const first = firstInOrder(order, waiting);
  if (!first) {
    return Number.isFinite(nextScheduled) ? { reason: 'scheduled', nextAttemptAt: nextScheduled } : undefined;
  }
  const head = first;
  if (head.content.kind === 'mms' && !online.some((modem) => modem.sendsMms === true)) {
    return { reason: 'no-mms-device' };
  }
  const benched = pool.benchedSimulators(online);
  const able = online.filter((modem) => carries(head, modem, now, benched));
  const carriers = able.filter((modem) => context.mayRoute(head, modem));
  if (carriers.length === 0) {
    const routed = able.length > 0 ? context.routeHold(head, able, online) : undefined;
    if (routed) return routed;
    return head.requestedDeviceId === undefined
      ? { reason: 'no-modem' }
      : { reason: 'no-modem', deviceId: head.requestedDeviceId };
  }
  // Next in line behind a send in progress: not held, just queued.
  if (carriers.some((modem) => pool.isSending(modem.deviceId))) return undefined;
  const ownLimits = carriers.map((modem) => ({ modem, at: ownLimitsAt(modem, now) }));
  // A member with a queue of its own (a phone) holding all it may: queued until one settles.
  if (ownLimits.some(({ at }) => at === Number.POSITIVE_INFINITY)) return undefined;
  const paced = ownLimits.find(({ at }) => at > now);
  if (paced && ownLimits.every(({ at }) => at > now)) {
    return { reason: 'rate-limit', nextAttemptAt: paced.at, deviceId: paced.modem.deviceId };
  }
  let hold: Hold | undefined;
  for (const modem of carriers) {
    const candidate = modemHold(modem.deviceId, context);
    if (!hold || (candidate.nextAttemptAt ?? 0) < (hold.nextAttemptAt ?? 0)) hold = candidate;
  }
  return hold;
}

/** Which of one modem's limits lets it send last: that one is the reason shown. */
function modemHold(deviceId: string, { pool, limits, limit, now }: HoldContext): Hold {
  const parked = pool.parkedAt(deviceId);
  const paced = limits.pausedUntil(deviceId);
  const limited = limits.windowFreeAt(deviceId, now, limit);
  if (parked > now && parked >= Math.max(paced, limited, limit.opensAt))
    return { reason: 'no-modem', nextAttemptAt: parked, deviceId };
  if (limit.opensAt > now && limit.opensAt >= Math.max(paced, limited))
    return { reason: 'work-hours', nextAttemptAt: limit.opensAt };
  if (limited > now && limited >= paced) return { reason: 'rate-limit', nextAttemptAt: limited, deviceId };
  return { reason: 'send-interval', nextAttemptAt: Math.max(paced, now), deviceId };
}
