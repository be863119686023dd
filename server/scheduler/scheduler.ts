import type { Clock, TimerHandle } from '../clock/clock.js';
import type { MessageRecord } from '../domain/message.js';
import { describeError, ErrorCode, isGatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { DecryptionError } from '../messages/e2eEncryption.js';
import { TTL_EXPIRED_ERROR } from '../messages/failureTexts.js';
import type { MessageLifecycle } from '../messages/messageLifecycle.js';
import type { DeviceDirectory } from '../modem/deviceDirectory.js';
import type { OutboundModem } from '../modem/outboundModem.js';
import type { MessageRepository } from '../store/repositories.js';
import { INTERRUPTED_ERROR, recoverInterruptedSends, restoreSendWindows } from './crashRecovery.js';
import { describeHold, type Hold, type HoldReason } from './holdReason.js';
import { compareMessages, isExpedited, type ProcessingOrder } from './messageOrder.js';
import { ModemParking } from './modemParking.js';
import {
  canCarry,
  compareModemLoad,
  type ModemCandidate,
  type ModemLoad,
  simulatorMayCarry,
} from './modemSelection.js';
import { activePeriodMs, type LimitPeriod, type SendLimit, SlidingWindowLimiter } from './rateLimiter.js';
import { SendPacing } from './sendPacing.js';
import { type SimSelectionMode, SimSelector } from './simSelection.js';
import { type WorkHours, workHoursOpenAt } from './workHours.js';

export interface SendingPolicy {
  processingOrder: ProcessingOrder;
  sendIntervalMinSeconds: number | null;
  sendIntervalMaxSeconds: number | null;
  limitPeriod: LimitPeriod;
  limitValue: number | null;
  simSelectionMode: SimSelectionMode;
  /** Opt-in: re-queue a send interrupted by a crash instead of failing it (DESIGN §3). */
  resendInterrupted: boolean;
  /** The user paused sending (tray, UI): nothing is handed to a modem; expiry still applies. */
  paused: boolean;
  /** Outside this daily window only expedited messages (priority ≥ 100) are sent; null: any time. */
  workHours: WorkHours | null;
}

/** What holds back a non-expedited message at one instant, besides each modem's own pause. */
interface Limits {
  window: SendLimit;
  /** When the working hours let sends through again (`now` while they are open). */
  opensAt: number;
}

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
}

export interface SchedulerStatus {
  pending: number;
  sending: number;
  holding?: { reason: HoldReason; nextAttemptAt?: number; detail: string };
}

/** What a modem made of one recipient's send; 'held': in the member's own queue, still Processed. */
type SendOutcome = { references: number[] } | { failure: string } | 'modem-unavailable' | 'held';

/** Error text of a recipient on the opt-out list (README "Opt-out"). */
export const OPTED_OUT_ERROR = 'opted out';

/** Error text of the recipients not sent when a phone went away in the middle of their message. */
export const NOT_SENT_DEVICE_GONE_ERROR =
  'not sent: the device stopped answering in the middle of this message; send it again to this number';

export { TTL_EXPIRED_ERROR };

/**
 * Decides what is sent, when, through which modem and SIM.
 *
 * Each decision is one synchronous scan of the Pending messages: expire what passed its
 * `validUntil`, then let every free modem (fewest sends in the window first) take the first
 * message in queue order it may carry — a non-expedited one only when the modem's pause and
 * sliding window allow. A scan never runs inline: `wake()` sets a zero-delay timer, so every
 * event of one instant (several sends ending together) is seen by one scan. A queued message
 * asks for a scan only when a modem could take it at once (`enqueued`), so a long queue behind
 * busy modems costs nothing per POST. A modem is free again as soon as its send is answered:
 * the records of that send and the next hand-over then share one commit (group commit).
 *
 * ModemUnavailable (the modem refused the hand-over; nothing was sent) puts the recipients not
 * yet sent back to Pending, for any modem unless pinned, and parks that modem (`modemParking.ts`).
 * Nothing is lost, and nothing the modem may have sent is sent again: every other failure is
 * final for that recipient.
 */
export class Scheduler {
  private readonly logger: Logger;
  private limiter = new SlidingWindowLimiter();
  /**
   * Hand-overs from before this run are in the limiter from this time on. They are read from
   * the store only as far back as an active limit needs (`restoreWindowsFor`): with no limit
   * set, a start reads none of them, however busy the last day was.
   */
  private restoredFrom = 0;
  private readonly pacing: SendPacing;
  private readonly sims: SimSelector;
  private readonly busy = new Set<string>();
  private readonly lastUsedAt = new Map<string, number>();
  private realModemJoined = false;
  private readonly parking = new ModemParking();
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private scanTimer: TimerHandle | undefined;
  private wakeTimer: TimerHandle | undefined;
  private wakeTimerAt = Number.POSITIVE_INFINITY;
  private unsubscribe: (() => void) | undefined;
  private hold: Hold | undefined;

  constructor(private readonly deps: SchedulerDeps) {
    this.logger = deps.logger.child('scheduler');
    const random = deps.random ?? Math.random;
    this.pacing = new SendPacing(random);
    this.sims = new SimSelector(random);
  }

  /** Rebuilds the limit windows, settles sends a crash interrupted, then starts scheduling. */
  async start(): Promise<void> {
    if (this.running) return;
    const { repository, lifecycle, clock } = this.deps;
    // From the store alone, so a stop/start of this instance does not count a send twice; and
    // before recovery, as re-queueing forgets the device an interrupted message was handed to.
    this.limiter = new SlidingWindowLimiter();
    this.restoredFrom = clock.now();
    const restored = this.restoreWindowsFor(limitsOf(this.deps.policy(), clock.now()).window, clock.now());
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
      this.noteDeviceChange(deviceId);
      this.wake();
    });
    this.wake();
  }

  /** Stops taking messages and waits for the sends already handed to modems. */
  async stop(): Promise<void> {
    this.running = false;
    this.scanTimer?.cancel();
    this.scanTimer = undefined;
    this.cancelWakeTimer();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Something changed (message enqueued or cancelled, settings, modems): decide again. */
  wake(): void {
    if (!this.running || this.scanTimer) return;
    this.scanTimer = this.deps.clock.setTimer(() => {
      this.scanTimer = undefined;
      this.scan();
    }, 0);
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
    const limit = this.limitsAt(policy, now);
    const online = policy.paused ? [] : this.readyModems();
    const benched = this.benchedSimulators(online);
    const startsAt = Math.max(message.scheduleAt ?? now, now);
    // When each idle modem that may carry it could take it; busy ones wake us when they finish.
    let takeableAt = Number.POSITIVE_INFINITY;
    for (const modem of online) {
      if (this.busy.has(modem.deviceId) || !carries(message, modem, now, benched)) continue;
      const limitsAt = isExpedited(message) ? now : this.limitsFreeAt(modem.deviceId, now, limit);
      takeableAt = Math.min(
        takeableAt,
        Math.max(startsAt, this.parkedAt(modem.deviceId), limitsAt, ownLimitsAt(modem, now)),
      );
    }
    if (takeableAt <= now) {
      this.wake();
      return;
    }
    const due = Math.min(message.validUntil ?? Number.POSITIVE_INFINITY, takeableAt);
    if (due < this.wakeTimerAt) this.setWakeTimer(due, now);
    const startsLater = startsAt > now;
    this.hold ??= policy.paused
      ? { reason: 'paused' }
      : this.explainHold(
          startsLater ? [] : [message],
          online,
          startsLater ? startsAt : Number.POSITIVE_INFINITY,
          policy.processingOrder,
          limit,
          now,
        );
  }

  status(): SchedulerStatus {
    const status: SchedulerStatus = {
      pending: this.deps.repository.countInState('Pending'),
      sending: this.busy.size,
    };
    const hold = this.hold;
    if (hold && status.pending > 0) {
      status.holding = { reason: hold.reason, detail: describeHold(hold, this.deps.clock.now()) };
      if (hold.nextAttemptAt !== undefined) status.holding.nextAttemptAt = hold.nextAttemptAt;
    }
    return status;
  }

  private scan(): void {
    if (!this.running) return;
    this.cancelWakeTimer();
    const now = this.deps.clock.now();
    const policy = this.deps.policy();
    const limit = this.limitsAt(policy, now);

    const ready: MessageRecord[] = [];
    let nextExpiry = Number.POSITIVE_INFINITY;
    let nextScheduled = Number.POSITIVE_INFINITY;
    for (const message of this.deps.repository.pending()) {
      if (message.validUntil !== undefined && now >= message.validUntil) {
        this.track(this.expire(message.id));
        continue;
      }
      if (message.validUntil !== undefined) nextExpiry = Math.min(nextExpiry, message.validUntil);
      if (message.scheduleAt !== undefined && message.scheduleAt > now) {
        nextScheduled = Math.min(nextScheduled, message.scheduleAt);
        continue;
      }
      ready.push(message);
    }

    const online = policy.paused ? [] : this.readyModems();
    const benched = this.benchedSimulators(online);
    const free = online
      .filter((modem) => this.isFree(modem, now))
      .map((modem) => ({
        modem,
        deviceId: modem.deviceId,
        lastSeen: modem.lastSeen,
        ...this.load(modem, now, limit),
      }))
      .sort(compareModemLoad);
    const claimed = new Set<string>();
    for (const candidate of free) {
      const limitsAllow = this.limitsFreeAt(candidate.deviceId, now, limit) <= now;
      let best: MessageRecord | undefined;
      for (const message of ready) {
        if (claimed.has(message.id)) continue;
        if (!limitsAllow && !isExpedited(message)) continue;
        if (!carries(message, candidate, now, benched)) continue;
        if (!best || compareMessages(policy.processingOrder, message, best) < 0) best = message;
      }
      if (!best) continue;
      claimed.add(best.id);
      this.handOver(candidate.modem, best.id, policy, now);
    }

    const waiting = ready.filter((message) => !claimed.has(message.id));
    this.hold =
      policy.paused && waiting.length > 0
        ? { reason: 'paused' }
        : this.explainHold(waiting, online, nextScheduled, policy.processingOrder, limit, now);
    let nextWake = Math.min(nextExpiry, nextScheduled);
    if (waiting.length > 0) {
      for (const modem of online) {
        if (this.busy.has(modem.deviceId)) continue;
        const at = Math.max(
          this.parkedAt(modem.deviceId),
          this.limitsFreeAt(modem.deviceId, now, limit),
          ownLimitsAt(modem, now),
        );
        if (at > now && Number.isFinite(at)) nextWake = Math.min(nextWake, at);
      }
    }
    if (Number.isFinite(nextWake)) this.setWakeTimer(nextWake, now);
  }

  /** The limits in force, with the windows refilled from the store as far back as they reach. */
  private limitsAt(policy: SendingPolicy, now: number): Limits {
    const limits = limitsOf(policy, now);
    this.restoreWindowsFor(limits.window, now);
    return limits;
  }

  /**
   * Reads from the store the hand-overs of before this run that `limit`'s window reaches and
   * the limiter does not hold yet: once at start for the limit then in force, and again only
   * when a longer window is set. Returns how many were read.
   */
  private restoreWindowsFor(limit: SendLimit, now: number): number {
    const period = activePeriodMs(limit);
    if (period === undefined || now - period >= this.restoredFrom) return 0;
    const restored = restoreSendWindows(this.deps.repository, this.limiter, now - period, this.restoredFrom);
    this.restoredFrom = now - period;
    return restored;
  }

  /** Through wake(): events due at the same instant (sends ending) land in the same scan. */
  private setWakeTimer(at: number, now: number): void {
    this.cancelWakeTimer();
    this.wakeTimerAt = at;
    this.wakeTimer = this.deps.clock.setTimer(() => {
      this.wakeTimer = undefined;
      this.wakeTimerAt = Number.POSITIVE_INFINITY;
      this.wake();
    }, at - now);
  }

  private cancelWakeTimer(): void {
    this.wakeTimer?.cancel();
    this.wakeTimer = undefined;
    this.wakeTimerAt = Number.POSITIVE_INFINITY;
  }

  /**
   * The simulated modems among `online` that may carry only messages pinned to them, because a
   * real modem or phone is in the pool (`simulatorMayCarry`). Once one has been seen in this
   * run the rule holds while it recovers or is replugged, so the simulator never fills in.
   */
  private benchedSimulators(online: readonly OutboundModem[]): ReadonlySet<string> {
    const { devices } = this.deps;
    const simulated = online.filter((modem) => devices.get(modem.deviceId)?.modem.simulated === true);
    if (simulated.length === 0) return new Set();
    this.realModemJoined ||= devices
      .list()
      .some((device) => !device.modem.simulated && device.modem.status !== 'offline');
    return new Set(this.realModemJoined ? simulated.map((modem) => modem.deviceId) : []);
  }

  /** Only a modem that says it is ready is handed a message (see the class comment). */
  private readyModems(): OutboundModem[] {
    return this.deps.devices.online().filter((modem) => modem.status === 'ready');
  }

  /** Not sending, not parked, and its own limits (a phone's pacing and in-flight bound) allow. */
  private isFree(modem: OutboundModem, now: number): boolean {
    return (
      !this.busy.has(modem.deviceId) && this.parkedAt(modem.deviceId) <= now && ownLimitsAt(modem, now) <= now
    );
  }

  private load(modem: OutboundModem, now: number, limit: Limits): ModemLoad {
    return {
      sentInWindow: this.limiter.countInWindow(modem.deviceId, now, limit.window),
      lastUsedAt: this.lastUsedAt.get(modem.deviceId) ?? Number.NEGATIVE_INFINITY,
    };
  }

  /** When the pause, the sliding window and the working hours all let a non-expedited message through. */
  private limitsFreeAt(deviceId: string, now: number, limit: Limits): number {
    return Math.max(
      this.pacing.nextAllowedAt(deviceId),
      this.limiter.nextAllowedAt(deviceId, now, limit.window),
      limit.opensAt,
    );
  }

  private park(deviceId: string): void {
    this.parking.park(deviceId, this.deps.clock.now(), this.isReady(deviceId));
  }

  private noteDeviceChange(deviceId: string): void {
    if (this.parking.noteStatus(deviceId, this.isReady(deviceId))) {
      this.logger.info('modem is back; offering it work again', { deviceId });
    }
  }

  private isReady(deviceId: string): boolean {
    return this.readyModems().some((modem) => modem.deviceId === deviceId);
  }

  private parkedAt(deviceId: string): number {
    return this.parking.parkedUntilOf(deviceId);
  }

  private async expire(messageId: string): Promise<void> {
    this.logger.info('message expired before a modem took it', { messageId });
    await this.deps.lifecycle.failAll(messageId, TTL_EXPIRED_ERROR);
  }

  /** Synchronous up to `markProcessed`'s in-memory change, so the next scan cannot pick it again. */
  private handOver(modem: OutboundModem, messageId: string, policy: SendingPolicy, now: number): void {
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
    const simNumber = this.sims.choose(stored, modem, policy.simSelectionMode);
    this.limiter.record(modem.deviceId, now);
    this.lastUsedAt.set(modem.deviceId, now);
    this.busy.add(modem.deviceId);
    this.logger.debug('handing message to modem', { messageId, deviceId: modem.deviceId, simNumber });
    const viaSimulator = this.deps.devices.get(modem.deviceId)?.modem.simulated === true;
    const processed = lifecycle.markProcessed(messageId, modem.deviceId, viaSimulator);
    this.track(this.deliver(modem, stored, plain, simNumber, processed));
  }

  private failUndecryptable(messageId: string, error: unknown): void {
    this.logger.warn('cannot decrypt message', { messageId, error: describeError(error) });
    this.track(
      this.deps.lifecycle
        .failAll(messageId, `decryption failed: ${describeError(error)}`)
        .then(() => undefined),
    );
    this.wake();
  }

  private async deliver(
    modem: OutboundModem,
    stored: MessageRecord,
    plain: MessageRecord,
    simNumber: number,
    processed: Promise<MessageRecord>,
  ): Promise<void> {
    const records: Promise<unknown>[] = [];
    /** Recipients of this hand-over the member holds in its own queue (still Processed). */
    let held = 0;
    try {
      await processed;
      for (const [index, recipient] of stored.recipients.entries()) {
        // `stored` is the copy from before markProcessed: its Pending recipients are this hand-over's.
        if (recipient.state !== 'Pending') continue;
        const phoneNumber = plain.recipients[index]?.phoneNumber ?? recipient.phoneNumber;
        if (!stored.ignoreOptOut && this.deps.isOptedOut?.(phoneNumber)) {
          records.push(this.record(stored.id, recipient.phoneNumber, { failure: OPTED_OUT_ERROR }));
          continue;
        }
        const outcome = await this.sendTo(modem, stored, plain, phoneNumber, index, simNumber);
        if (outcome === 'modem-unavailable') {
          this.park(modem.deviceId);
          if (held > 0) {
            // A re-queue would take back what the member holds too, and it could be sent twice.
            this.failRest(stored, index, modem.deviceId, records);
            break;
          }
          this.logger.warn('modem refused the message; re-queued', {
            messageId: stored.id,
            deviceId: modem.deviceId,
          });
          await this.deps.lifecycle.requeue(stored.id);
          break;
        }
        if (outcome === 'held') {
          held++;
          continue;
        }
        records.push(this.record(stored.id, recipient.phoneNumber, outcome));
      }
    } finally {
      this.release(modem.deviceId);
    }
    // The modem is free before these records are durable: its next hand-over's Processed mark
    // joins them in one commit instead of waiting for a commit of its own. No send
    // starts before its own Processed mark is durable, so a crash still marks exactly the sends
    // that may have left.
    await Promise.all(records);
  }

  /**
   * The member went away in the middle of a message after it took some recipients into its own
   * queue: the ones from `from` on were not sent, and fail saying so (a re-queue cannot leave
   * the held ones where they are).
   */
  private failRest(stored: MessageRecord, from: number, deviceId: string, records: Promise<unknown>[]): void {
    this.logger.warn('device went away in the middle of a message; the rest is not sent', {
      messageId: stored.id,
      deviceId,
    });
    for (const recipient of stored.recipients.slice(from)) {
      if (recipient.state !== 'Pending') continue;
      records.push(this.record(stored.id, recipient.phoneNumber, { failure: NOT_SENT_DEVICE_GONE_ERROR }));
    }
  }

  private release(deviceId: string): void {
    this.busy.delete(deviceId);
    const policy = this.deps.policy();
    this.pacing.sendEnded(deviceId, this.deps.clock.now(), {
      minSeconds: policy.sendIntervalMinSeconds,
      maxSeconds: policy.sendIntervalMaxSeconds,
    });
    this.wake();
  }

  /** One recipient's send; the modem's answer, to be recorded as the recipient's state. */
  private async sendTo(
    modem: OutboundModem,
    stored: MessageRecord,
    plain: MessageRecord,
    phoneNumber: string,
    recipientIndex: number,
    simNumber: number,
  ): Promise<SendOutcome> {
    const sealedNumber = stored.recipients[recipientIndex]?.phoneNumber;
    try {
      const result = await modem.send({
        messageId: stored.id,
        recipient: phoneNumber,
        recipientIndex,
        content: plain.content,
        ...(stored.isEncrypted && modem.passesEncrypted && sealedNumber !== undefined
          ? { encrypted: { recipient: sealedNumber, content: stored.content } }
          : {}),
        simNumber,
        requestStatusReport: stored.withDeliveryReport,
        ...(stored.validUntil === undefined ? {} : { validUntil: stored.validUntil }),
      });
      if (result.held) return 'held';
      return { references: result.references };
    } catch (error) {
      if (isGatewayError(error, ErrorCode.ModemUnavailable)) return 'modem-unavailable';
      this.logger.warn('send failed', {
        messageId: stored.id,
        deviceId: modem.deviceId,
        error: describeError(error),
      });
      return { failure: sendFailureText(error) };
    }
  }

  /** States are recorded under the stored (possibly encrypted) number, not the one dialled. */
  private record(
    messageId: string,
    storedPhoneNumber: string,
    outcome: Exclude<SendOutcome, 'modem-unavailable' | 'held'>,
  ): Promise<unknown> {
    const { lifecycle } = this.deps;
    return 'references' in outcome
      ? lifecycle.markRecipientSent(messageId, storedPhoneNumber, outcome.references)
      : lifecycle.markRecipientFailed(messageId, storedPhoneNumber, outcome.failure);
  }

  private explainHold(
    waiting: readonly MessageRecord[],
    online: readonly OutboundModem[],
    nextScheduled: number,
    order: ProcessingOrder,
    limit: Limits,
    now: number,
  ): Hold | undefined {
    let first: MessageRecord | undefined;
    for (const message of waiting) {
      if (!first || compareMessages(order, message, first) < 0) first = message;
    }
    if (!first) {
      return Number.isFinite(nextScheduled)
        ? { reason: 'scheduled', nextAttemptAt: nextScheduled }
        : undefined;
    }
    const head = first;
    const benched = this.benchedSimulators(online);
    const carriers = online.filter((modem) => carries(head, modem, now, benched));
    if (carriers.length === 0) {
      return head.requestedDeviceId === undefined
        ? { reason: 'no-modem' }
        : { reason: 'no-modem', deviceId: head.requestedDeviceId };
    }
    // Next in line behind a send in progress: not held, just queued.
    if (carriers.some((modem) => this.busy.has(modem.deviceId))) return undefined;
    const ownLimits = carriers.map((modem) => ({ modem, at: ownLimitsAt(modem, now) }));
    // A member with a queue of its own (a phone) holding all it may: queued until one settles.
    if (ownLimits.some(({ at }) => at === Number.POSITIVE_INFINITY)) return undefined;
    const paced = ownLimits.find(({ at }) => at > now);
    if (paced && ownLimits.every(({ at }) => at > now)) {
      return { reason: 'rate-limit', nextAttemptAt: paced.at, deviceId: paced.modem.deviceId };
    }
    let hold: Hold | undefined;
    for (const modem of carriers) {
      const candidate = this.modemHold(modem.deviceId, now, limit);
      if (!hold || (candidate.nextAttemptAt ?? 0) < (hold.nextAttemptAt ?? 0)) hold = candidate;
    }
    return hold;
  }

  private modemHold(deviceId: string, now: number, limit: Limits): Hold {
    const parked = this.parkedAt(deviceId);
    const paced = this.pacing.nextAllowedAt(deviceId);
    const limited = this.limiter.nextAllowedAt(deviceId, now, limit.window);
    if (parked > now && parked >= Math.max(paced, limited, limit.opensAt))
      return { reason: 'no-modem', nextAttemptAt: parked, deviceId };
    if (limit.opensAt > now && limit.opensAt >= Math.max(paced, limited))
      return { reason: 'work-hours', nextAttemptAt: limit.opensAt };
    if (limited > now && limited >= paced) return { reason: 'rate-limit', nextAttemptAt: limited, deviceId };
    return { reason: 'send-interval', nextAttemptAt: Math.max(paced, now), deviceId };
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => {
      this.logger.error('scheduler step failed', { error: describeError(error) });
    });
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }
}

/**
 * The `error` a failed recipient shows: the modem's own text for a refusal (e.g. "+CMS ERROR: 500",
 * TS 27.005 §3.2.5); for an unknown outcome the interruption text, since the PDU may have left.
 */
function sendFailureText(error: unknown): string {
  if (isGatewayError(error, ErrorCode.CmsError)) return error.message;
  if (isGatewayError(error, ErrorCode.SendInterrupted)) return INTERRUPTED_ERROR;
  return `send failed: ${describeError(error)}`;
}

function limitsOf(policy: SendingPolicy, now: number): Limits {
  return {
    window: { period: policy.limitPeriod, value: policy.limitValue },
    opensAt: policy.workHours ? workHoursOpenAt(policy.workHours, now) : now,
  };
}

/** When a member's own limits let it take another message (`OutboundModem.availableAt`). */
function ownLimitsAt(modem: OutboundModem, now: number): number {
  return modem.availableAt?.(now) ?? now;
}

/** `canCarry` plus the simulator rule (`simulatorMayCarry`) for the benched simulators. */
function carries(
  message: MessageRecord,
  modem: ModemCandidate,
  now: number,
  benched: ReadonlySet<string>,
): boolean {
  // Only simulators are ever benched, and only while a real modem is in the pool.
  return (
    canCarry(message, modem, now) && simulatorMayCarry(message, modem.deviceId, benched.has(modem.deviceId))
  );
}
