import type { Clock } from '../../clock/clock.js';
import { decryptionFailed, ttlExpired } from '../../contract/domain/failureTexts.js';
import type { HoldReason, MessageWait } from '../../contract/domain/holdReasons.js';
import type { MessageRecord } from '../../contract/domain/message.js';
import { isExpedited } from '../../contract/domain/messageOrder.js';
import type { ModemSlots } from '../../contract/domain/simTarget.js';
import type { DeviceDirectory } from '../../devices/pool/deviceDirectory.js';
import type { OutboundModem } from '../../devices/pool/outboundModem.js';
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { MessageRepository } from '../../store/repositories.js';
import { DecryptionError } from '../messages/e2eEncryption.js';
import type { MessageLifecycle } from '../messages/messageLifecycle.js';
import { recoverInterruptedSends } from './crashRecovery.js';
import { explainHold, type HoldContext } from './holdExplanation.js';
import { describeHold, type Hold } from './holdReason.js';
import { MessageDelivery } from './messageDelivery.js';
import { ModemAvailability, ownLimitsAt } from './modemAvailability.js';
import { carries, compareModemLoad } from './modemSelection.js';
import { ReadyQueue } from './readyQueue.js';
import { ScanTimers } from './scanTimers.js';
import type { SendingPolicy } from './sendingPolicy.js';
import { type Limits, SendLimits } from './sendLimits.js';
import { SimSelector } from './simSelection.js';

export type { Hold } from './holdReason.js';
export type { SendingPolicy } from './sendingPolicy.js';

export interface SchedulerDeps {
  repository: MessageRepository;
  lifecycle: MessageLifecycle;
  devices: DeviceDirectory;
  /** Read on every decision, so settings apply live; call `wake()` after a change. */
  policy: () => SendingPolicy;
  /** Plain copy of an end-to-end encrypted message; identity when not encrypted. */
  decrypt: (message: MessageRecord) => MessageRecord;
  clock: Clock;
  logger: Logger;
  /**
   * Whether a recipient (its number as dialled) is on the opt-out list; such a send never
   * reaches the modem unless the message says `ignoreOptOut`. Absent: nobody is.
   */
  isOptedOut?: (phoneNumber: string) => boolean;
  /** Uniform in [0, 1): send pauses and Random SIM choice. */
  random?: () => number;
  /**
   * Runs a task just before the store's open write batch commits (false when none is open): the
   * scan after a send's answer runs there, so the answer and the next hand-over share a commit.
   */
  beforeCommit?: (task: () => void) => boolean;
  /**
   * The SIM slots of this modem that routing lets carry the message, given the modems online
   * (routing rules, an app's allowed modems and SIMs, SIM plans: server/services/routing/); empty: none.
   * The slot that sends is one of them. Absent: every slot of every modem may.
   */
  mayRoute?: (message: MessageRecord, modem: ModemSlots, online: readonly ModemSlots[]) => readonly number[];
  /**
   * Why routing keeps a message off the online modems that could otherwise carry it (`able`;
   * a routing rule, a SIM plan's cap: server/services/routing/, server/services/plans/), given the modems
   * online, for the hold reason. Absent or undefined: "no modem".
   */
  routeHold?: (
    message: MessageRecord,
    able: readonly ModemSlots[],
    online: readonly ModemSlots[],
  ) => Hold | undefined;
  /**
   * A message was handed to a modem's SIM slot, in the turn (and so the commit) of its
   * Processed mark: SIM plans count it. `message` is the plain copy.
   */
  handedOver?: (message: MessageRecord, deviceId: string, simNumber: number) => void;
}

export interface SchedulerStatus {
  pending: number;
  sending: number;
  holding?: HoldingStatus;
}

/** What holds the queue, said for a person (`detail`) and named for the window to say in its own words. */
export interface HoldingStatus {
  reason: HoldReason;
  nextAttemptAt?: number;
  detail: string;
  /** The modem the hold is about, when one is; `simNumber` its capped SIM slot. */
  deviceId?: string;
  simNumber?: number;
}

/**
 * Decides what is sent, when, through which modem and SIM.
 *
 * Each decision is one synchronous scan of the front of the queue, a window read in queue order
 * and kept between scans (`readyQueue.ts`): expire what passed its `validUntil`, then let every free modem (fewest sends
 * in the window first) take the first message in queue order it may carry — a non-expedited one
 * only when the modem's pause and sliding window allow. A scan never runs inline: `wake()` sets a
 * zero-delay timer, so every event of one instant (several sends ending together) is seen by one
 * scan. A queued message
 * asks for a scan only when a modem could take it at once (`enqueued`), so a long queue behind
 * busy modems costs nothing per POST. A modem is free again as soon as its send is answered,
 * and the scan that gives it its next message runs as the commit recording that answer is made
 * (`beforeCommit`): one commit, one fdatasync, per hand-over.
 *
 * ModemUnavailable (the modem refused the hand-over; nothing was sent) puts the recipients not
 * yet sent back to Pending, for any modem unless pinned, and parks that modem (`modemParking.ts`).
 * Nothing is lost, and nothing the modem may have sent is sent again: every other failure is
 * final for that recipient.
 */
export class Scheduler {
  private readonly logger: Logger;
  private readonly limits: SendLimits;
  private readonly sims: SimSelector;
  private readonly pool: ModemAvailability;
  private readonly delivery: MessageDelivery;
  private readonly timers: ScanTimers;
  private readonly queue: ReadyQueue;
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private unsubscribe: (() => void) | undefined;
  private hold: Hold | undefined;

  /** `carries` (modemSelection.ts), then the routing hook. */
  private mayTake(
    message: MessageRecord,
    modem: OutboundModem,
    now: number,
    benched: ReadonlySet<string>,
    online: readonly OutboundModem[],
  ): boolean {
    return carries(message, modem, now, benched) && this.routes(message, modem, online);
  }

  /**
   * The slots of the modem routing lets carry the message (`SchedulerDeps.mayRoute`);
   * undefined without a routing hook: any slot.
   */
  private routedSlots(
    message: MessageRecord,
    modem: OutboundModem,
    online: readonly OutboundModem[],
  ): readonly number[] | undefined {
    return this.deps.mayRoute?.(message, modem, online);
  }

  /** Whether routing lets any slot of the modem carry the message. */
  private routes(message: MessageRecord, modem: OutboundModem, online: readonly OutboundModem[]): boolean {
    return (this.routedSlots(message, modem, online)?.length ?? 1) > 0;
  }

  constructor(private readonly deps: SchedulerDeps) {
    this.logger = deps.logger.child('scheduler');
    const random = deps.random ?? Math.random;
    this.limits = new SendLimits(deps.repository, random);
    this.sims = new SimSelector(random);
    this.pool = new ModemAvailability(deps.devices);
    this.delivery = new MessageDelivery({
      lifecycle: deps.lifecycle,
      logger: this.logger,
      isOptedOut: deps.isOptedOut,
      refused: (deviceId) => this.pool.park(deviceId, deps.clock.now()),
      answered: (deviceId) => this.release(deviceId),
      attachmentsOf: (messageId) => deps.repository.attachmentsOf(messageId),
    });
    this.timers = new ScanTimers(deps.clock, () => this.scan(), deps.beforeCommit);
    this.queue = new ReadyQueue(deps.repository);
  }

  /** Rebuilds the limit windows, settles sends a crash interrupted, then starts scheduling. */
  async start(): Promise<void> {
    if (this.running) return;
    const { repository, lifecycle, clock } = this.deps;
    // Before recovery, as re-queueing forgets the device an interrupted message was handed to.
    const restored = this.limits.restart(this.deps.policy(), clock.now());
    const recovered = await recoverInterruptedSends({
      repository,
      lifecycle,
      requeue: (messageId) => lifecycle.requeue(messageId),
      resend: this.deps.policy().resendInterrupted,
      logger: this.logger,
    });
    this.logger.info('scheduler started', { restoredSends: restored, interruptedSends: recovered });
    this.running = true;
    this.unsubscribe = this.deps.devices.onChange((deviceId) => {
      if (this.pool.noteDeviceChange(deviceId)) {
        this.logger.info('modem is back; offering it work again', { deviceId });
      }
      this.wake();
    });
    this.wake();
  }

  /** Stops taking messages and waits for the sends already handed to modems. */
  async stop(): Promise<void> {
    this.running = false;
    this.timers.cancelAll();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Something changed (message enqueued or cancelled, settings, modems): decide again. */
  wake(): void {
    if (!this.running) return;
    this.queue.retryWalks();
    this.timers.request();
  }

  /**
   * A message was queued. When no modem could take it now (all busy, parked, held by their
   * limits, offline, or sending paused), a scan would hand nothing over yet cost a walk of the
   * whole queue on every POST; the send that ends next, or a modem change, scans instead. Only
   * the message's own deadlines can need an earlier scan, so they move the wake timer.
   */
  enqueued(message: MessageRecord): void {
    if (!this.running) return;
    const now = this.deps.clock.now();
    const policy = this.deps.policy();
    const limit = this.limits.at(policy, now);
    const online = policy.paused ? [] : this.pool.ready();
    const benched = this.pool.benchedSimulators(online);
    const startsAt = Math.max(message.scheduleAt ?? now, now);
    // When each idle modem that may carry it could take it; busy ones wake us when they finish.
    let takeableAt = Number.POSITIVE_INFINITY;
    for (const modem of online) {
      if (this.pool.isSending(modem.deviceId) || !this.mayTake(message, modem, now, benched, online))
        continue;
      const limitsAt = isExpedited(message) ? now : this.limits.freeAt(modem.deviceId, now, limit);
      takeableAt = Math.min(
        takeableAt,
        Math.max(startsAt, this.pool.parkedAt(modem.deviceId), limitsAt, ownLimitsAt(modem, now)),
      );
    }
    if (takeableAt <= now) {
      this.timers.requestThisTurn();
      return;
    }
    const due = Math.min(message.validUntil ?? Number.POSITIVE_INFINITY, takeableAt);
    if (due < this.timers.wakeDueAt) this.timers.wakeAt(due, now);
    const startsLater = startsAt > now;
    this.hold ??= policy.paused
      ? { reason: 'paused' }
      : explainHold(
          startsLater ? [] : [message],
          online,
          startsLater ? startsAt : Number.POSITIVE_INFINITY,
          policy.processingOrder,
          this.holdContext(limit, now, online),
        );
  }

  /**
   * Why one queued message waits now, as the hold of a scan would explain it were it at the head
   * of the queue; `queued` when a modem that may carry it is busy sending or could take it now
   * (its turn comes). Undefined for a message that is no longer queued.
   */
  waitOf(message: MessageRecord): MessageWait | undefined {
    if (message.state !== 'Pending') return undefined;
    const now = this.deps.clock.now();
    const policy = this.deps.policy();
    const online = this.pool.ready();
    const limit = this.limits.at(policy, now);
    const startsLater = message.scheduleAt !== undefined && message.scheduleAt > now;
    const hold: Hold | undefined = policy.paused
      ? { reason: 'paused' }
      : startsLater
        ? { reason: 'scheduled', nextAttemptAt: message.scheduleAt }
        : explainHold(
            [message],
            online,
            Number.POSITIVE_INFINITY,
            policy.processingOrder,
            this.holdContext(limit, now, online),
          );
    if (!hold) {
      return {
        reason: 'queued',
        detail: `queued: its turn comes when a modem is free (${this.pool.sendingCount} sending now)`,
      };
    }
    return {
      reason: hold.reason,
      detail: describeHold(hold, now),
      ...(hold.nextAttemptAt !== undefined ? { nextAttemptAt: hold.nextAttemptAt } : {}),
    };
  }

  status(): SchedulerStatus {
    const status: SchedulerStatus = {
      pending: this.deps.repository.countInState('Pending'),
      sending: this.pool.sendingCount,
    };
    const hold = this.hold;
    if (hold && status.pending > 0) {
      status.holding = { reason: hold.reason, detail: describeHold(hold, this.deps.clock.now()) };
      if (hold.nextAttemptAt !== undefined) status.holding.nextAttemptAt = hold.nextAttemptAt;
      if (hold.deviceId !== undefined) status.holding.deviceId = hold.deviceId;
      if (hold.reason === 'plan-cap') status.holding.simNumber = hold.plan.sim;
    }
    return status;
  }

  private scan(): void {
    if (!this.running) return;
    this.timers.cancelWake();
    const now = this.deps.clock.now();
    const policy = this.deps.policy();
    const limit = this.limits.at(policy, now);

    const { nextExpiry, nextScheduled } = this.queue.refresh(policy.processingOrder, now, (message) =>
      this.track(this.expire(message.id)),
    );

    const online = policy.paused ? [] : this.pool.ready();
    const benched = this.pool.benchedSimulators(online);
    const free = online
      .filter((modem) => this.pool.isFree(modem, now))
      .map((modem) => ({
        modem,
        deviceId: modem.deviceId,
        lastSeen: modem.lastSeen,
        sentInWindow: this.limits.sentInWindow(modem.deviceId, now, limit),
        lastUsedAt: this.pool.lastUsed(modem.deviceId),
      }))
      .sort(compareModemLoad);
    const claimed = new Set<string>();
    for (const candidate of free) {
      const limitsAllow = this.limits.freeAt(candidate.deviceId, now, limit) <= now;
      // Each free modem takes the first message in queue order it may carry: the routing checks
      // run on the few messages it passes over, not on the whole queue. One its limits hold
      // takes only an expedited message, and those lead the order.
      const best = this.queue.first(
        (message) => !claimed.has(message.id) && this.mayTake(message, candidate.modem, now, benched, online),
        (message) => !limitsAllow && !isExpedited(message),
        candidate.deviceId,
      );
      if (!best) continue;
      claimed.add(best.id);
      this.handOver(candidate.modem, best.id, policy, now, this.routedSlots(best, candidate.modem, online));
    }

    // The head of what is left waiting is what the hold explains.
    const head = this.queue.first((message) => !claimed.has(message.id));
    const waiting = head ? [head] : [];
    this.hold =
      policy.paused && waiting.length > 0
        ? { reason: 'paused' }
        : explainHold(
            waiting,
            online,
            nextScheduled,
            policy.processingOrder,
            this.holdContext(limit, now, online),
          );
    let nextWake = Math.min(nextExpiry, nextScheduled);
    if (waiting.length > 0) {
      for (const modem of online) {
        if (this.pool.isSending(modem.deviceId)) continue;
        const at = Math.max(
          this.pool.parkedAt(modem.deviceId),
          this.limits.freeAt(modem.deviceId, now, limit),
          ownLimitsAt(modem, now),
        );
        if (at > now && Number.isFinite(at)) nextWake = Math.min(nextWake, at);
      }
    }
    if (Number.isFinite(nextWake)) this.timers.wakeAt(nextWake, now);
  }

  private async expire(messageId: string): Promise<void> {
    this.logger.info('message expired before a modem took it', { messageId });
    await this.deps.lifecycle.failAll(messageId, ttlExpired);
  }

  /** Synchronous up to `markProcessed`'s in-memory change, so the next scan cannot pick it again. */
  private handOver(
    modem: OutboundModem,
    messageId: string,
    policy: SendingPolicy,
    now: number,
    slots: readonly number[] | undefined,
  ): void {
    const { repository, lifecycle } = this.deps;
    // Re-read: the scan's copy must still be Pending (a cancel may have landed meanwhile).
    const stored = repository.get(messageId);
    if (stored?.state !== 'Pending') return;
    let plain: MessageRecord;
    try {
      plain = this.deps.decrypt(stored);
    } catch (error) {
      // A member that decrypts by itself takes it as it came, even when only it has the right
      // passphrase (none or another one here); opt-outs cannot be matched on a number we cannot read.
      if (modem.passesEncrypted && error instanceof DecryptionError && error.reason !== 'bad-format') {
        plain = stored;
      } else {
        this.failUndecryptable(messageId, error);
        return;
      }
    }
    const simNumber = this.sims.choose(stored, modem, policy.simSelectionMode, slots);
    this.limits.record(modem.deviceId, now);
    this.pool.taken(modem.deviceId, now);
    this.logger.debug('handing message to modem', { messageId, deviceId: modem.deviceId, simNumber });
    const viaSimulator = this.pool.isSimulated(modem.deviceId);
    const processed = lifecycle.markProcessed(messageId, modem.deviceId, viaSimulator);
    this.deps.handedOver?.(plain, modem.deviceId, simNumber);
    this.track(this.delivery.deliver(modem, stored, plain, simNumber, processed));
  }

  private failUndecryptable(messageId: string, error: unknown): void {
    this.logger.warn('cannot decrypt message', { messageId, error: describeError(error) });
    this.track(
      this.deps.lifecycle.failAll(messageId, decryptionFailed(describeError(error))).then(() => undefined),
    );
    this.wake();
  }

  private release(deviceId: string): void {
    this.pool.released(deviceId);
    this.limits.sendEnded(deviceId, this.deps.clock.now(), this.deps.policy());
    if (this.running) this.timers.requestBeforeCommit();
  }

  private holdContext(limit: Limits, now: number, online: readonly OutboundModem[]): HoldContext {
    return {
      pool: this.pool,
      limits: this.limits,
      limit,
      now,
      mayRoute: (message, modem) => this.routes(message, modem, online),
      routeHold: (message, able, online) => this.deps.routeHold?.(message, able, online),
    };
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => {
      this.logger.error('scheduler step failed', { error: describeError(error) });
    });
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }
}
