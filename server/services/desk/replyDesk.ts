import type { Clock } from '../../clock/clock.js';
import type { PeerKey } from '../../contract/domain/peerKey.js';
import type { Settings } from '../../contract/schemas/settingsSchema.js';
import type { Logger } from '../../logging/logger.js';
import { CoreReads } from '../../store/sqlite/coreReads.js';
import type { Storage } from '../../store/storage.js';
import type { EventBus } from '../events/eventBus.js';
import type { FactAnnouncer } from '../events/factAnnouncer.js';
import type { MessageService } from '../messages/messageService.js';
import { PatternMatcher } from '../patterns/patternMatcher.js';
import { ConversationIndex } from './conversations/conversationIndex.js';
import { ConversationService } from './conversations/conversationService.js';
import { ConversationStore } from './conversations/conversationStore.js';
import { deskSenderOf } from './deskSender.js';
import { IncomingDesk } from './incomingDesk.js';
import type { OptOutList } from './optOut/optOutList.js';
import { ReplyMemory } from './rules/replyMemory.js';
import { type AddressBook, RuleActions } from './rules/ruleActions.js';
import { type AutoReplyRule, RuleBook } from './rules/ruleBook.js';

export interface ReplyDeskDependencies {
  storage: Storage;
  messages: MessageService;
  events: EventBus;
  facts: FactAnnouncer;
  settings: () => Settings;
  key: PeerKey;
  /** Built by the caller, as the bulk sends (desk.ts) filter by it too. */
  optOuts: OptOutList;
  /** Contacts, groups and templates (desk.ts): names in conversations, rule actions. */
  book: AddressBook;
  clock: Clock;
  logger: Logger;
}

export interface ReplyDesk {
  /** Catches the conversations up with the history and starts following incoming SMS. */
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly conversations: ConversationService;
  readonly optOuts: OptOutList;
  readonly rules: RuleBook;
  readonly actions: RuleActions;
  /** For "Try the rules" in the window: its own thread, so a real SMS's rules never wait behind it. */
  readonly trialPatterns: PatternMatcher;
}

/**
 * The desk's side that talks back (docs/desk.md "Conversations", "Opt-out", "Auto-reply rules",
 * "Scheduling"; their routes: server/doors/http/routes/desk/): built before the scheduler, whose sends it vets, and before the modems, whose
 * incoming SMS it follows. The address book and bulk sends are `desk.ts`.
 */
export function openReplyDesk(deps: ReplyDeskDependencies): ReplyDesk {
  const logger = deps.logger.child('desk');
  const { storage, events, key, clock } = deps;
  const { db, commits } = storage.sqlite;
  const core = new CoreReads(db);
  const send = deskSenderOf(deps.messages);
  const { optOuts, book } = deps;
  const actions = new RuleActions({ book, send, key });
  const rules = new RuleBook(storage.openCollection<AutoReplyRule>('auto-reply-rules'));
  // A thread of its own, not the balance check's: a flood of SMS only delays the rules.
  const patterns = new PatternMatcher({ name: 'rule pattern', logger });
  // Trying rules in the window runs apart from the rules that answer incoming SMS, with a short
  // line: however often anyone presses "Try", a real SMS's auto-reply never waits behind it.
  const trialPatterns = new PatternMatcher({ name: 'rule test pattern', logger, maxWaiting: 4 });
  const conversations = new ConversationService({
    index: new ConversationIndex(core, db, commits, key),
    store: new ConversationStore(db, commits, core),
    messages: storage.messages,
    inbox: storage.inbox,
    send,
    key,
    events,
    clock,
    logger,
  });
  const incoming = new IncomingDesk({
    events,
    facts: deps.facts,
    optOuts,
    rules,
    memory: new ReplyMemory(db, commits),
    actions,
    patterns,
    send,
    key,
    settings: deps.settings,
    clock,
    logger,
  });
  const stops: (() => void)[] = [];
  return {
    conversations,
    optOuts,
    rules,
    actions,
    trialPatterns,
    async start() {
      stops.push(incoming.start());
      stops.push(await conversations.start());
    },
    async stop() {
      for (const stop of stops.splice(0)) stop();
      await incoming.settled();
      await Promise.all([patterns.close(), trialPatterns.close()]);
      await conversations.caughtUp();
    },
  };
}
