import type { Clock, TimerHandle } from '../../clock/clock.js';
import type {
  AssembledSms,
  PendingGroup,
  PendingPartsStore,
  ReceivedPart,
} from '../../contract/domain/incoming.js';
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';

/**
 * Multipart reassembly (TS 23.040 §9.2.3.24.1): parts are grouped by device, sender,
 * concatenation reference and parts count, may arrive in any order and interleaved with other
 * messages. A complete group becomes one message; a group still missing parts after
 * `partTimeoutMs` is delivered with what arrived, marked incomplete, so nothing is ever lost.
 *
 * Durability: `add` resolves only once the part is in the `PendingPartsStore`, so the modem
 * driver may delete the part from the SIM afterwards. A completed group is removed from the
 * store only after `deliver` (the inbox write) resolved.
 */
export interface PartArrival {
  deviceId: string;
  simNumber: number;
  sender: string;
  reference: number;
  partsCount: number;
  port?: number;
  part: ReceivedPart;
}

export interface ReassemblerOptions {
  store: PendingPartsStore;
  clock: Clock;
  logger: Logger;
  /** Called with each whole (or timed-out) message; must resolve once it is durably stored. */
  deliver: (message: AssembledSms) => Promise<void>;
  /** How long to wait for missing parts, in ms. Default 24 h. */
  partTimeoutMs?: number;
}

export const defaultPartTimeoutMs = 24 * 60 * 60 * 1000;

export class Reassembler {
  private readonly groups = new Map<string, PendingGroup>();
  private readonly timers = new Map<string, TimerHandle>();
  private readonly timeoutMs: number;
  /** Groups whose delivery is under way: a part read twice must not deliver twice. */
  private readonly completing = new Set<string>();
  private saving: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: ReassemblerOptions) {
    this.timeoutMs = options.partTimeoutMs ?? defaultPartTimeoutMs;
  }

  /** Loads the parts kept before a restart and re-arms their timeouts. */
  async start(): Promise<void> {
    for (const group of await this.options.store.load()) {
      this.groups.set(group.key, group);
      this.arm(group);
    }
  }

  /** Cancels the timeouts and resolves once the last write finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
    await this.saving;
  }

  /** Groups still waiting for parts (for diagnostics and tests). */
  pendingGroups(): PendingGroup[] {
    return [...this.groups.values()].filter((group) => group.completedAt === undefined);
  }

  /** Keeps the part durably; delivers the message when it was the last one missing. */
  async add(arrival: PartArrival): Promise<void> {
    const key = groupKey(arrival);
    let group = this.groups.get(key);
    if (group?.completedAt !== undefined) {
      const again = group.delivered?.some(
        (seen) => seen.partNumber === arrival.part.partNumber && seen.sentAt === arrival.part.sentAt,
      );
      if (again) {
        this.options.logger.info('part of an already delivered message read again; ignored', { key });
        return;
      }
      // Same sender reused the reference for a new message (8-bit references wrap at 256).
      this.forget(key);
      group = undefined;
    }
    if (!group) {
      group = {
        key,
        deviceId: arrival.deviceId,
        simNumber: arrival.simNumber,
        sender: arrival.sender,
        reference: arrival.reference,
        partsCount: arrival.partsCount,
        firstReceivedAt: arrival.part.receivedAt,
        parts: [],
      };
      if (arrival.port !== undefined) group.port = arrival.port;
      this.groups.set(key, group);
      this.arm(group);
    }
    if (!group.parts.some((part) => part.partNumber === arrival.part.partNumber)) {
      group.parts.push(arrival.part);
      group.parts.sort((left, right) => left.partNumber - right.partNumber);
    }
    await this.persist();
    if (group.parts.length >= group.partsCount) await this.complete(group, false);
  }

  private arm(group: PendingGroup): void {
    const dueAt = (group.completedAt ?? group.firstReceivedAt) + this.timeoutMs;
    const timer = this.options.clock.setTimer(() => {
      this.timers.delete(group.key);
      void this.expire(group.key);
    }, dueAt - this.options.clock.now());
    this.timers.get(group.key)?.cancel();
    this.timers.set(group.key, timer);
  }

  private async expire(key: string): Promise<void> {
    const group = this.groups.get(key);
    if (!group || this.stopped) return;
    if (group.completedAt !== undefined) {
      this.forget(key);
      await this.persist().catch((error: unknown) => {
        this.options.logger.warn('dropping a delivered multipart record failed', {
          key,
          error: describeError(error),
        });
      });
      return;
    }
    this.options.logger.warn(
      'multipart message incomplete after the timeout; storing the parts that arrived',
      {
        key,
        arrived: group.parts.map((part) => part.partNumber),
        partsCount: group.partsCount,
      },
    );
    try {
      await this.complete(group, true);
    } catch (error) {
      // Kept in the store: retried after a restart (the timer is re-armed from the file).
      this.options.logger.error('storing an incomplete multipart message failed', {
        key,
        error: describeError(error),
      });
    }
  }

  private async complete(group: PendingGroup, incomplete: boolean): Promise<void> {
    if (this.completing.has(group.key)) return;
    this.completing.add(group.key);
    try {
      await this.deliverAndMark(group, incomplete);
    } finally {
      this.completing.delete(group.key);
    }
  }

  private async deliverAndMark(group: PendingGroup, incomplete: boolean): Promise<void> {
    const message: AssembledSms = {
      deviceId: group.deviceId,
      simNumber: group.simNumber,
      sender: group.sender,
      parts: group.parts,
      incomplete,
    };
    if (group.port !== undefined) message.port = group.port;
    await this.options.deliver(message);
    group.delivered = group.parts.map((part) => ({ partNumber: part.partNumber, sentAt: part.sentAt }));
    group.parts = [];
    group.completedAt = this.options.clock.now();
    if (incomplete) this.forget(group.key);
    else this.arm(group);
    await this.persist();
  }

  private forget(key: string): void {
    this.groups.delete(key);
    this.timers.get(key)?.cancel();
    this.timers.delete(key);
  }

  /** Writes are chained: each writes the state as it is when its turn comes. */
  private persist(): Promise<void> {
    const next = this.saving.then(() => this.options.store.save([...this.groups.values()]));
    this.saving = next.catch(() => undefined);
    return next;
  }
}

function groupKey(arrival: PartArrival): string {
  return JSON.stringify([arrival.deviceId, arrival.sender, arrival.reference, arrival.partsCount]);
}
