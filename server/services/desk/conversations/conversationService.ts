import type { Clock, TimerHandle } from '../../../clock/clock.js';
import type { ConversationDirection } from '../../../contract/domain/desk.js';
import type { MessageRecord, MessageState } from '../../../contract/domain/message.js';
import type { PeerKey } from '../../../contract/domain/peerKey.js';
import { shownText } from '../../../contract/domain/shownText.js';
import { describeError, ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { Logger } from '../../../logging/logger.js';
import type { InboxRepository, MessageRepository, Page } from '../../../store/repositories.js';
import type { EventBus } from '../../events/eventBus.js';
import type { DeskSend } from '../deskSender.js';
import type { ConversationIndex } from './conversationIndex.js';
import type { ConversationListQuery } from './conversationStore.js';
import { type ConversationStore, type ConversationSummary, dataMessageText } from './conversationStore.js';

/** One message of a thread, either direction. */
export interface ThreadMessage {
  direction: ConversationDirection;
  id: string;
  at: number;
  text: string;
  deviceId?: string;
  simNumber?: number;
  /** Outgoing only: this party's recipient state, and the error of a Failed one. */
  state?: MessageState;
  error?: string;
  /** Outgoing only: not sent before this instant. */
  scheduleAt?: number;
}

export interface ConversationServiceDependencies {
  index: ConversationIndex;
  store: ConversationStore;
  messages: MessageRepository;
  inbox: InboxRepository;
  send: DeskSend;
  key: PeerKey;
  events: EventBus;
  clock: Clock;
  logger: Logger;
}

/**
 * How long the index waits after a message is queued or stored before it follows. Its commit
 * would otherwise go to disk just ahead of the scheduler's Processed mark and make the send wait
 * for one more fsync; waiting also indexes a burst of messages in one commit. Readers that need
 * the newest rows (a reply) call `caughtUp`.
 */
const conversationFollowDelayMs = 20;

/**
 * Conversations (docs/desk.md "Conversations"): the messages of both directions filed under the
 * other party's key. The index follows every message queued and every SMS stored (one catch-up
 * at a time; events during one ask for one more).
 */
export class ConversationService {
  private catchingUp: Promise<void> | undefined;
  private again = false;
  private followTimer: TimerHandle | undefined;

  constructor(private readonly deps: ConversationServiceDependencies) {}

  /** Catches up with the history, then follows new messages; returns the unsubscribe. */
  async start(): Promise<() => void> {
    const unsubscribe = [
      this.deps.events.on('message:enqueued', () => this.followSoon()),
      this.deps.events.on('message:received', () => this.followSoon()),
    ];
    await this.caughtUp();
    return () => {
      for (const stop of unsubscribe) stop();
      this.followTimer?.cancel();
      this.followTimer = undefined;
    };
  }

  /** Resolves once everything stored so far is indexed (a read-your-writes point for replies). */
  async caughtUp(): Promise<void> {
    this.follow();
    while (this.catchingUp) await this.catchingUp;
  }

  list(query: ConversationListQuery): Page<ConversationSummary> {
    return this.deps.store.list(query);
  }

  /** Any text names a party (an alphanumeric sender too); one never heard of has an empty thread. */
  thread(party: string, limit: number, offset: number): Page<ThreadMessage> & { peer: string } {
    const peer = this.deps.key(party);
    const page = this.deps.store.items(peer, limit, offset);
    const items: ThreadMessage[] = [];
    for (const ref of page.items) {
      const message = ref.direction === 'in' ? this.incoming(ref.id) : this.outgoing(ref.id, peer);
      // Retention may have removed the message since it was filed.
      if (message) items.push(message);
    }
    return { peer, total: page.total, items };
  }

  summary(party: string): ConversationSummary {
    const peer = this.deps.key(party);
    const summary = this.deps.store.get(peer);
    if (!summary) {
      throw new GatewayError(ErrorCode.NotFound, `no conversation with ${peer}`, { field: 'number' });
    }
    return summary;
  }

  async markRead(party: string, read: boolean): Promise<ConversationSummary> {
    const { peer } = this.summary(party);
    await this.deps.store.markUnread(peer, !read);
    return this.summary(peer);
  }

  async archive(party: string, archived: boolean): Promise<ConversationSummary> {
    const { peer } = this.summary(party);
    await this.deps.store.archive(peer, archived);
    return this.summary(peer);
  }

  /**
   * Sends `text` to the party from the modem and SIM they last wrote to (any modem when they
   * never wrote), and marks the conversation read: whoever answers has read it.
   */
  async reply(party: string, text: string): Promise<MessageRecord> {
    const summary = this.summary(party);
    const message = await this.deps.send({
      to: summary.peer,
      text,
      ...(summary.replyDeviceId === undefined ? {} : { deviceId: summary.replyDeviceId }),
      ...(summary.replySimNumber === undefined ? {} : { simNumber: summary.replySimNumber }),
    });
    await this.deps.store.markUnread(summary.peer, false);
    await this.caughtUp();
    return message;
  }

  private followSoon(): void {
    this.followTimer ??= this.deps.clock.setTimer(() => {
      this.followTimer = undefined;
      this.follow();
    }, conversationFollowDelayMs);
  }

  private follow(): void {
    if (this.catchingUp) {
      this.again = true;
      return;
    }
    this.catchingUp = this.deps.index
      .catchUp()
      .catch((error: unknown) =>
        this.deps.logger.error('the conversation index could not catch up', { error: describeError(error) }),
      )
      .finally(() => {
        this.catchingUp = undefined;
        if (this.again) {
          this.again = false;
          this.follow();
        }
      });
  }

  private incoming(id: string): ThreadMessage | undefined {
    const record = this.deps.inbox.get(id);
    return (
      record && {
        direction: 'in',
        id,
        at: record.receivedAt,
        text: record.content,
        deviceId: record.deviceId,
        simNumber: record.simNumber,
      }
    );
  }

  private outgoing(id: string, peer: string): ThreadMessage | undefined {
    const message = this.deps.messages.get(id);
    if (!message) return undefined;
    const recipient = message.recipients.find((candidate) => this.deps.key(candidate.phoneNumber) === peer);
    return {
      direction: 'out',
      id,
      at: message.createdAt,
      text: threadText(message),
      ...(message.deviceId === undefined ? {} : { deviceId: message.deviceId }),
      ...(message.simNumber === undefined ? {} : { simNumber: message.simNumber }),
      state: recipient?.state ?? message.state,
      ...(recipient?.error === undefined ? {} : { error: recipient.error }),
      ...(message.scheduleAt === undefined ? {} : { scheduleAt: message.scheduleAt }),
    };
  }
}

/** An outgoing message's text in a thread: an SMS's as shown, an MMS's with its mark. */
function threadText(message: MessageRecord): string {
  const { content } = message;
  if (content.kind === 'text') return shownText(message, content.text);
  if (content.kind === 'mms') return ['[MMS]', content.subject, content.text].filter(Boolean).join(' ');
  return dataMessageText;
}
