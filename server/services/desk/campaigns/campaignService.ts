import { createHash } from 'node:crypto';
import type { Clock } from '../../../clock/clock.js';
import { toIsoWithOffset } from '../../../clock/isoTime.js';
import type { Caller } from '../../../contract/domain/caller.js';
import type { CampaignRecipientReport } from '../../../contract/domain/campaignReport.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { Logger } from '../../../logging/logger.js';
import type { MessageRepository } from '../../../store/repositories.js';
import { generateMessageId } from '../../messages/messageId.js';
import type { MessageLifecycle } from '../../messages/messageLifecycle.js';
import type { MessageService } from '../../messages/messageService.js';
import { chunksInTurns, messagesPerTurn, rowPacer } from '../bulkPacing.js';
import type { GroupRepository } from '../contacts/groupRepository.js';
import {
  type AudienceDependencies,
  type AudiencePlan,
  type AudienceSpec,
  type PlannedMessage,
  planAudience,
} from './audience.js';
import type { CampaignRecord, CampaignRepository } from './campaignRepository.js';

/** Most recipients in one campaign: message ids are `<campaign id>-<index>`, 36 characters at most. */
export const MaxCampaignRecipients = 50_000;
/** Longest id a client may give: with `-49999` after it, a message id stays within 36 characters. */
export const MaxCampaignIdLength = 30;

export interface CampaignRequest {
  /**
   * The client's own id for the campaign, as a message's `id`: a retry under it answers the
   * campaign it started instead of starting another.
   */
  id?: string;
  name?: string;
  /** With placeholders (`Hello {name}, your order {order} is ready`). */
  text: string;
  recipients: AudienceSpec;
  withDeliveryReport?: boolean;
  deviceId?: string;
  simNumber?: number;
  priority?: number;
  /** Not sent before this instant (ms since epoch): a bulk send scheduled for later. */
  scheduleAt?: number;
  /**
   * Send to the rest when some recipients have a problem (a number that cannot be read, a
   * placeholder without a value); without it any problem refuses the campaign whole.
   */
  skipProblems?: boolean;
}

export interface CampaignPreview {
  recipients: number;
  duplicates: number;
  removed: Record<string, number>;
  partsPerMessage: { min: number; max: number };
  totalParts: number;
  /** The first few messages as they will go out. */
  samples: { phoneNumber: string; name?: string; text: string; parts: number }[];
  /** The first `problemsListed` problems. */
  problems: { field: string; message: string }[];
  /** Every problem, listed or not. */
  problemCount: number;
}

/**
 * `Queueing`: its messages are being written; `Interrupted`: their writing was cut short (a
 * crash, a full queue) — a retry with the same id completes it, a cancel ends it.
 */
export type CampaignState = 'Queueing' | 'Running' | 'Completed' | 'Cancelled' | 'Interrupted';

export interface CampaignProgress {
  /** Waiting in the queue or being handed to a modem. */
  queued: number;
  /** Reached the network (Sent or Delivered). */
  sent: number;
  delivered: number;
  failed: number;
  cancelled: number;
  /** Share of recipients whose message went out or failed (not queued, not cancelled), 0–100. */
  percent: number;
}

export interface CampaignView extends Omit<CampaignRecord, 'fingerprint' | 'queueing' | 'sequence'> {
  state: CampaignState;
  progress: CampaignProgress;
}

const sampleCount = 3;
const problemsListed = 100;

export interface CampaignServiceDependencies extends AudienceDependencies {
  groups: GroupRepository;
  campaigns: CampaignRepository;
  messages: MessageService;
  messageRepository: MessageRepository;
  lifecycle: MessageLifecycle;
  clock: Clock;
  logger: Logger;
}

/**
 * Bulk sends. A campaign is accepted in one action: every recipient is resolved and checked
 * first, and any problem refuses it whole, unless the request says to skip those recipients. Its messages (one per recipient, each with its own
 * text) then go into the queue `messagesPerTurn` per commit, the campaign with the first of them,
 * so that the gateway keeps answering while 50,000 are written. From there they are ordinary
 * messages: the scheduler's limits, pauses and modem choice apply to each.
 */
export class CampaignService {
  /**
   * Starts under way, by campaign id: a retry waits for the attempt before it, and a campaign
   * whose messages are still being written here reads as Queueing (after a crash: Interrupted).
   */
  private readonly starting = new Map<string, Promise<CampaignView>>();

  constructor(private readonly deps: CampaignServiceDependencies) {}

  async preview(request: CampaignRequest): Promise<CampaignPreview> {
    const plan = await this.plan(request);
    // A loop, not Math.min(...parts): 50,000 arguments would overflow the call stack.
    const parts = plan.messages.reduce(
      (range, message) => ({
        min: Math.min(range.min, message.parts),
        max: Math.max(range.max, message.parts),
      }),
      { min: Number.POSITIVE_INFINITY, max: 0 },
    );
    return {
      recipients: plan.messages.length,
      duplicates: plan.duplicates,
      removed: plan.removed,
      partsPerMessage: plan.messages.length === 0 ? { min: 0, max: 0 } : parts,
      totalParts: plan.totalParts,
      samples: plan.messages.slice(0, sampleCount),
      problems: plan.problems.slice(0, problemsListed),
      problemCount: plan.problems.length,
    };
  }

  /**
   * Queues the campaign, or nothing at all when any recipient has a problem (400 naming it) and
   * the request does not say `skipProblems`.
   * A retry under the same `id` answers the campaign that id started — the same view, no new
   * messages — and completes one whose writing was cut short by queueing only the recipients it
   * has no message for: the client that lost its answer (a crash, a dropped connection) retries
   * without sending anything twice. The same id with another request is a 409.
   */
  start(request: CampaignRequest, caller: Caller): Promise<CampaignView> {
    const id = request.id ?? generateMessageId();
    const before = this.starting.get(id) ?? Promise.resolve();
    const attempt = before.then(
      () => this.startOnce(id, request, caller),
      () => this.startOnce(id, request, caller),
    );
    this.starting.set(id, attempt);
    const forget = () => {
      if (this.starting.get(id) === attempt) this.starting.delete(id);
    };
    attempt.then(forget, forget);
    return attempt;
  }

  private async startOnce(id: string, request: CampaignRequest, caller: Caller): Promise<CampaignView> {
    const fingerprint = fingerprintOf(request);
    const stored = this.deps.campaigns.find(id);
    if (stored && stored.fingerprint !== fingerprint) {
      throw new GatewayError(ErrorCode.Conflict, `id: campaign ${id} was started with another request`, {
        field: 'id',
      });
    }
    if (stored && (stored.queueing === undefined || stored.cancelledAt !== undefined))
      return this.view(stored);

    const plan = await this.plan(request);
    const [first] = plan.problems;
    if (first && request.skipProblems !== true) {
      const more = plan.problems.length > 1 ? ` (and ${plan.problems.length - 1} more problems)` : '';
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        `${first.field}: ${first.message}${more}; fix it, or send with skipProblems to send to the rest`,
        { field: first.field },
      );
    }
    if (plan.messages.length === 0) {
      throw new GatewayError(ErrorCode.ValidationFailed, 'recipients: nobody is left to send to', {
        field: 'recipients',
      });
    }
    const written = stored ? await this.writtenNumbers(id) : { count: 0, numbers: new Set<string>() };
    const missing = plan.messages.filter((message) => !written.numbers.has(message.phoneNumber));
    this.deps.messages.checkQueueCapacity(missing.length);
    const record: CampaignRecord = stored ?? {
      id,
      name: request.name?.trim() || `Campaign of ${plan.messages.length}`,
      text: request.text,
      createdAt: this.deps.clock.now(),
      recipients: plan.messages.length,
      totalParts: plan.totalParts,
      ...(request.scheduleAt !== undefined ? { scheduleAt: request.scheduleAt } : {}),
      fingerprint,
      queueing: true,
    };
    const writtenParts = plan.messages
      .filter((message) => written.numbers.has(message.phoneNumber))
      .reduce((sum, message) => sum + message.parts, 0);
    const added = await this.writeMessages(record, missing, written.count, request, caller);
    // Cancelled while queueing, it counts only the recipients it has a message for.
    const { queueing: _queueing, ...current } = this.deps.campaigns.get(id);
    const queued: CampaignRecord = {
      ...current,
      recipients: written.count + added.count,
      totalParts: writtenParts + added.parts,
    };
    await this.deps.campaigns.update(queued);
    this.deps.logger.info('campaign queued', {
      id,
      recipients: queued.recipients,
      parts: queued.totalParts,
      ...(plan.problems.length > 0 ? { skippedRecipients: plan.problems.length } : {}),
      ...(stored ? { completedAfter: written.count } : {}),
    });
    return this.view(queued);
  }

  /**
   * Queues the messages `messagesPerTurn` per commit, numbered on from `next`; stops early when the
   * campaign is cancelled. Answers how many it wrote and their parts.
   */
  private async writeMessages(
    record: CampaignRecord,
    messages: readonly PlannedMessage[],
    next: number,
    request: CampaignRequest,
    caller: Caller,
  ): Promise<{ count: number; parts: number }> {
    const added = { count: 0, parts: 0 };
    for await (const chunk of chunksInTurns(messages, messagesPerTurn)) {
      // Read in the turn that writes: a cancel stops the messages not written yet.
      const current = this.deps.campaigns.find(record.id);
      if (current?.cancelledAt !== undefined) break;
      const first = next + added.count;
      const prepared = this.deps.messages.prepareAll(
        chunk.map((message, index) => this.enqueueRequest(`${record.id}-${first + index}`, message, request)),
        caller,
      );
      const ids = prepared.map((message) => message.id);
      const batchSequence = current?.sequence ?? prepared[0]?.sequence;
      const batched = prepared.map((message) => ({ ...message, batchSequence }));
      // Same turn, so one commit: the campaign knows every message written, and no more.
      await Promise.all([
        current
          ? this.deps.campaigns.addMessages(record.id, ids)
          : this.deps.campaigns.insert({ ...record, sequence: batchSequence }, ids),
        this.deps.messages.enqueuePrepared(batched),
      ]);
      added.count += chunk.length;
      added.parts += chunk.reduce((sum, message) => sum + message.parts, 0);
    }
    return added;
  }

  private enqueueRequest(id: string, message: PlannedMessage, request: CampaignRequest) {
    return {
      message: {
        id,
        textMessage: { text: message.text },
        phoneNumbers: [message.phoneNumber],
        withDeliveryReport: request.withDeliveryReport ?? true,
        deviceId: request.deviceId,
        simNumber: request.simNumber,
        priority: request.priority ?? 0,
        scheduleAt: request.scheduleAt,
      },
      skipPhoneValidation: false,
      deviceActiveWithinHours: 0,
    };
  }

  /** How many messages a campaign cut short has, and the numbers they go to. */
  private async writtenNumbers(id: string): Promise<{ count: number; numbers: Set<string> }> {
    const messageIds = this.deps.campaigns.messageIds(id);
    const numbers = new Set<string>();
    const pace = rowPacer();
    for (const messageId of messageIds) {
      await pace();
      const phoneNumber = this.deps.messageRepository.get(messageId)?.recipients[0]?.phoneNumber;
      if (phoneNumber !== undefined) numbers.add(phoneNumber);
    }
    return { count: messageIds.length, numbers };
  }

  get(id: string): CampaignView {
    return this.view(this.deps.campaigns.get(id));
  }

  list(limit: number, offset: number): { total: number; items: CampaignView[] } {
    const page = this.deps.campaigns.list(limit, offset);
    return { total: page.total, items: page.items.map((record) => this.view(record)) };
  }

  /**
   * The campaign's recipients in list order, each with its message's state, error and times:
   * the per-campaign report (CSV in the window). A page at a time, as a campaign has up to
   * `MaxCampaignRecipients`.
   */
  report(id: string, limit: number, offset: number): { total: number; items: CampaignRecipientReport[] } {
    this.deps.campaigns.get(id);
    const messageIds = this.deps.campaigns.messageIds(id);
    const items = messageIds.slice(offset, offset + limit).flatMap((messageId) => {
      const message = this.deps.messageRepository.get(messageId);
      const recipient = message?.recipients[0];
      if (!message || !recipient) return [];
      const at = (state: keyof typeof message.states) => message.states[state];
      return [
        {
          messageId,
          phoneNumber: recipient.phoneNumber,
          state: recipient.state,
          ...(recipient.error ? { error: recipient.error } : {}),
          ...times({
            queuedAt: at('Pending'),
            sentAt: at('Sent'),
            deliveredAt: at('Delivered'),
            failedAt: at('Failed'),
            cancelledAt: at('Cancelled'),
          }),
        },
      ];
    });
    return { total: messageIds.length, items };
  }

  /** Cancels every message still waiting; those already handed to a modem go on. */
  async cancel(id: string): Promise<CampaignView> {
    const record = this.deps.campaigns.get(id);
    const cancellations: Promise<unknown>[] = [];
    for (const messageId of this.deps.campaigns.messageIds(id)) {
      if (this.deps.messageRepository.get(messageId)?.state === 'Pending') {
        cancellations.push(this.deps.lifecycle.cancel(messageId));
      }
    }
    const cancelled = { ...record, cancelledAt: record.cancelledAt ?? this.deps.clock.now() };
    await Promise.all([...cancellations, this.deps.campaigns.update(cancelled)]);
    this.deps.logger.info('campaign cancelled', { id, messages: cancellations.length });
    return this.view(cancelled);
  }

  private async plan(request: CampaignRequest): Promise<AudiencePlan> {
    this.deps.groups.checkIds(request.recipients.groupIds ?? [], 'recipients.groupIds');
    const plan = await planAudience(request.text, request.recipients, this.deps);
    if (plan.messages.length > MaxCampaignRecipients) {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        `recipients: ${plan.messages.length} recipients, more than the ${MaxCampaignRecipients} a campaign takes`,
        { field: 'recipients' },
      );
    }
    return plan;
  }

  private view(record: CampaignRecord): CampaignView {
    const { fingerprint: _fingerprint, queueing, sequence: _sequence, ...shown } = record;
    const counts = this.deps.campaigns.stateCounts(record.id);
    const count = (state: keyof typeof counts) => counts[state] ?? 0;
    const queued = count('Pending') + count('Processed');
    const progress: CampaignProgress = {
      queued,
      sent: count('Sent') + count('Delivered'),
      delivered: count('Delivered'),
      failed: count('Failed'),
      cancelled: count('Cancelled'),
      percent:
        record.recipients === 0
          ? 100
          : Math.floor(((record.recipients - queued - count('Cancelled')) * 100) / record.recipients),
    };
    return { ...shown, state: this.stateOf(record, queued), progress };
  }

  private stateOf(record: CampaignRecord, queued: number): CampaignState {
    if (record.queueing && record.cancelledAt === undefined) {
      return this.starting.has(record.id) ? 'Queueing' : 'Interrupted';
    }
    if (queued > 0) return 'Running';
    return record.cancelledAt !== undefined ? 'Cancelled' : 'Completed';
  }
}

/** The times that are set, as ISO 8601 with the PC's offset. */
function times(values: Record<string, number | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).flatMap(([key, value]) =>
      value === undefined ? [] : [[key, toIsoWithOffset(value)]],
    ),
  );
}

/** The request without its id, hashed: what a retry under that id must repeat. */
function fingerprintOf(request: CampaignRequest): string {
  const { id: _id, ...rest } = request;
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url');
}
