import type { Clock } from '../../clock/clock.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { generateMessageId } from '../../messages/messageId.js';
import type { MessageLifecycle } from '../../messages/messageLifecycle.js';
import type { MessageService } from '../../messages/messageService.js';
import type { MessageRepository } from '../../store/repositories.js';
import type { GroupRepository } from '../contacts/groupRepository.js';
import { type AudienceDependencies, type AudiencePlan, type AudienceSpec, planAudience } from './audience.js';
import type { CampaignRecord, CampaignRepository } from './campaignRepository.js';

/** Most recipients in one campaign: message ids are `<campaign id>-<index>`, 36 characters at most. */
export const MaxCampaignRecipients = 50_000;

export interface CampaignRequest {
  name?: string;
  /** With placeholders (`Hello {name}, your order {order} is ready`). */
  text: string;
  recipients: AudienceSpec;
  withDeliveryReport?: boolean;
  deviceId?: string;
  simNumber?: number;
  priority?: number;
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

export type CampaignState = 'Running' | 'Completed' | 'Cancelled';

export interface CampaignProgress {
  /** Waiting in the queue or being handed to a modem. */
  queued: number;
  /** Reached the network (Sent or Delivered). */
  sent: number;
  delivered: number;
  failed: number;
  cancelled: number;
  /** Share of recipients no longer queued, 0–100. */
  percent: number;
}

export interface CampaignView extends CampaignRecord {
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
 * first, then all its messages (one per recipient, each with its own text) and the campaign go
 * into the queue in one durable commit. From there they are ordinary messages: the scheduler's
 * limits, pauses and modem choice apply to each.
 */
export class CampaignService {
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

  /** Queues the campaign, or nothing at all when any recipient has a problem (400 naming it). */
  async start(request: CampaignRequest): Promise<CampaignView> {
    const plan = await this.plan(request);
    const [first] = plan.problems;
    if (first) {
      const more = plan.problems.length > 1 ? ` (and ${plan.problems.length - 1} more problems)` : '';
      throw new GatewayError(ErrorCode.ValidationFailed, `${first.field}: ${first.message}${more}`, {
        field: first.field,
      });
    }
    if (plan.messages.length === 0) {
      throw new GatewayError(ErrorCode.ValidationFailed, 'recipients: nobody is left to send to', {
        field: 'recipients',
      });
    }
    const id = generateMessageId();
    const prepared = this.deps.messages.prepareAll(
      plan.messages.map((message, index) => ({
        message: {
          id: `${id}-${index}`,
          textMessage: { text: message.text },
          phoneNumbers: [message.phoneNumber],
          withDeliveryReport: request.withDeliveryReport ?? true,
          deviceId: request.deviceId,
          simNumber: request.simNumber,
          priority: request.priority ?? 0,
        },
        skipPhoneValidation: false,
        deviceActiveWithinHours: 0,
      })),
    );
    const record: CampaignRecord = {
      id,
      name: request.name?.trim() || `Campaign of ${plan.messages.length}`,
      text: request.text,
      createdAt: this.deps.clock.now(),
      recipients: plan.messages.length,
      totalParts: plan.totalParts,
    };
    // Same turn, so one commit: the campaign is never stored without its messages, nor they without it.
    await Promise.all([
      this.deps.campaigns.insert(
        record,
        prepared.map((message) => message.id),
      ),
      this.deps.messages.enqueuePrepared(prepared),
    ]);
    this.deps.logger.info('campaign queued', { id, recipients: record.recipients, parts: record.totalParts });
    return this.view(record);
  }

  get(id: string): CampaignView {
    return this.view(this.deps.campaigns.get(id));
  }

  list(limit: number, offset: number): { total: number; items: CampaignView[] } {
    const page = this.deps.campaigns.list(limit, offset);
    return { total: page.total, items: page.items.map((record) => this.view(record)) };
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
        record.recipients === 0 ? 100 : Math.floor(((record.recipients - queued) * 100) / record.recipients),
    };
    const state: CampaignState =
      queued > 0 ? 'Running' : record.cancelledAt !== undefined ? 'Cancelled' : 'Completed';
    return { ...record, state, progress };
  }
}
