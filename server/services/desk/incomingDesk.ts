import type { Clock } from '../../clock/clock.js';
import { toIsoWithOffset } from '../../clock/isoTime.js';
import type { IncomingMessageEvent } from '../../contract/domain/incoming.js';
import type { PeerKey } from '../../contract/domain/peerKey.js';
import { missingText } from '../../contract/domain/placeholders.js';
import type { Settings } from '../../contract/schemas/settingsSchema.js';
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { EventBus } from '../events/eventBus.js';
import type { FactAnnouncer } from '../events/factAnnouncer.js';
import type { PatternMatching } from '../patterns/patternMatcher.js';
import { deskFact } from './deskEvents.js';
import type { DeskSend } from './deskSender.js';
import { isKeyword, keywordList } from './optOut/optOutKeywords.js';
import type { OptOutList } from './optOut/optOutList.js';
import type { ReplyMemory } from './rules/replyMemory.js';
import type { RuleActions } from './rules/ruleActions.js';
import type { AutoReplyRule, RuleBook } from './rules/ruleBook.js';
import { judgeRules, type RuleVerdict, ruleBudgetMs } from './rules/ruleEngine.js';

export interface IncomingDeskDependencies {
  events: EventBus;
  /** `autoreply:sent` is announced through it, durable before it is emitted. */
  facts: FactAnnouncer;
  optOuts: OptOutList;
  rules: RuleBook;
  memory: ReplyMemory;
  actions: RuleActions;
  /** Runs the rules' regular expressions off the event loop. */
  patterns: PatternMatching;
  send: DeskSend;
  key: PeerKey;
  settings: () => Settings;
  clock: Clock;
  logger: Logger;
}

/**
 * What the desk does with each SMS that arrives (stored for the first time): an opt-out or
 * opt-in keyword changes the opt-out list and ends there; any other text goes through the
 * auto-reply rules in order, each rule that applies acting once per sender per period.
 */
export class IncomingDesk {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly deps: IncomingDeskDependencies) {}

  start(): () => void {
    return this.deps.events.on('message:received', (incoming) => {
      if (incoming.type !== 'SMS') return;
      const work = this.handle(incoming).catch((error: unknown) =>
        this.deps.logger.error('the desk could not handle an incoming SMS', {
          id: incoming.id,
          error: describeError(error),
        }),
      );
      this.running.add(work);
      void work.finally(() => this.running.delete(work));
    });
  }

  /** Waits for the incoming messages still being handled (at stop). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  private async handle(incoming: IncomingMessageEvent): Promise<void> {
    const settings = this.deps.settings();
    if (isKeyword(incoming.content, keywordList(settings.opt_out.keywords))) {
      await this.optOut(incoming, settings.opt_out.confirmation_text);
      return;
    }
    if (isKeyword(incoming.content, keywordList(settings.opt_out.start_keywords))) {
      await this.deps.optOuts.remove(incoming.sender, 'keyword', incoming.deviceId);
      return;
    }
    if (this.deps.optOuts.isOptedOut(incoming.sender)) return;
    const rules = this.deps.rules.list();
    const verdicts = await judgeRules(
      rules,
      {
        text: incoming.content,
        sender: incoming.sender,
        deviceId: incoming.deviceId,
        at: incoming.receivedAt,
      },
      this.deps.patterns,
    );
    await this.disableTimedOut(rules, verdicts, incoming);
    const periodMs = (settings.auto_reply.reply_period_minutes ?? 60) * 60_000;
    for (const verdict of verdicts) {
      const rule = rules.find((candidate) => candidate.id === verdict.ruleId);
      if (!verdict.applies || !rule) continue;
      await this.act(rule, incoming, periodMs);
    }
  }

  /**
   * A rule whose regular expression ran out of the message's time would take it again on the
   * next message (any stranger can send the text): it is disabled until its pattern changes.
   */
  private async disableTimedOut(
    rules: readonly AutoReplyRule[],
    verdicts: readonly RuleVerdict[],
    incoming: IncomingMessageEvent,
  ): Promise<void> {
    for (const verdict of verdicts) {
      const rule = rules.find((candidate) => candidate.id === verdict.ruleId);
      if (verdict.patternState !== 'timed-out' || !rule) continue;
      await this.deps.rules.disablePattern(rule.id, rule.match, {
        reason: 'timed-out',
        at: this.deps.clock.now(),
      });
      this.deps.logger.warn("an auto-reply rule's regular expression ran out of time and is disabled", {
        ruleId: rule.id,
        name: rule.name,
        budgetMs: ruleBudgetMs,
        incomingMessageId: incoming.id,
      });
    }
  }

  private async optOut(incoming: IncomingMessageEvent, confirmation: string | null): Promise<void> {
    const already = this.deps.optOuts.isOptedOut(incoming.sender);
    await this.deps.optOuts.add(incoming.sender, 'keyword', incoming.deviceId);
    this.deps.logger.info('a sender opted out', { sender: this.deps.key(incoming.sender) });
    // Confirmed once: a second STOP from a number already on the list gets no answer.
    if (!confirmation || already) return;
    await this.deps.send({
      to: incoming.sender,
      text: confirmation,
      deviceId: incoming.deviceId,
      simNumber: incoming.simNumber,
      ignoreOptOut: true,
    });
  }

  private async act(rule: AutoReplyRule, incoming: IncomingMessageEvent, periodMs: number): Promise<void> {
    const sender = this.deps.key(incoming.sender);
    const now = this.deps.clock.now();
    const { action } = rule;
    const missing = this.deps.actions.unfilled(action, incoming.sender);
    if (missing.length > 0) {
      // Said on the rule, where staff mend it, and in the sender's conversation.
      this.deps.logger.warn('an auto-reply was not sent: the sender cannot fill its placeholders', {
        ruleId: rule.id,
        sender,
        missing: missingText(missing),
      });
      await this.deps.rules.noteSkipped(rule.id, action, { phoneNumber: sender, missing, at: now });
      return;
    }
    if (this.deps.actions.sends(action)) {
      const last = this.deps.memory.lastActedAt(rule.id, sender);
      if (last !== undefined && now - last < periodMs) {
        this.deps.logger.info('auto-reply held by loop protection', { ruleId: rule.id, sender });
        return;
      }
      await this.deps.memory.noteActed(rule.id, sender, now);
    }
    // The fact is recorded in the reply's own commit: a crash keeps both or neither.
    let owed: { durable: Promise<void>; emit(): void } | undefined;
    await this.deps.actions.perform(action, incoming, (message) => {
      owed = this.deps.facts.owe(
        'gateway:fact',
        deskFact('autoreply:sent', incoming.deviceId, {
          ruleId: rule.id,
          ruleName: rule.name,
          action: action.kind,
          phoneNumber: incoming.sender,
          messageId: message.id,
          incomingMessageId: incoming.id,
          sentAt: toIsoWithOffset(now),
        }),
      );
    });
    if (!owed) return;
    await owed.durable;
    owed.emit();
  }
}
