/**
 * A phone's incoming SMS, taken into our inbox: read from the app's `GET /inbox` since the newest
 * one taken (so a phone that was unreachable catches up when it answers again), or brought by a
 * webhook (`phoneWebhooks.ts`). Each is stored once, whichever way it came first.
 */
import type { Clock } from '../../clock/clock.js';
import { deliverOfText } from '../../contract/pdu/textDeliver.js';
import type { Logger } from '../../logging/logger.js';
import type { IncomingSink } from '../pool/sinks.js';
import type { PhoneClient, PhoneInboxMessage } from './phoneClient.js';
import type { PhoneLedger } from './phoneLedger.js';

/** GET /inbox's largest page (InboxRoutes.kt: limit 1..500). */
const INBOX_PAGE = 500;
/** The app's inbox types (modules/incoming/db/IncomingMessageType.kt) we take from GET /inbox. */
const SMS_TYPE = 'SMS';
const DATA_SMS_TYPE = 'DATA_SMS';
/** App ids remembered to skip an overlap of two reads; the cursor covers anything older. */
const SEEN_LIMIT = 2_000;

/** What an incoming message carries: text, or the bytes of a data SMS. */
export type IncomingContent = { kind: 'text'; text: string } | { kind: 'data'; bytes: Uint8Array };

export interface PhoneInboxDeps {
  deviceId: string;
  client: PhoneClient;
  ledger: PhoneLedger;
  receive: IncomingSink;
  clock: Clock;
  logger: Logger;
}

export class PhoneInbox {
  /** The app's ids of incoming messages already taken, so an overlap of two reads costs nothing. */
  private readonly seen = new Set<string>();

  constructor(private readonly deps: PhoneInboxDeps) {}

  /** Everything since the newest message taken (inclusive: an equal timestamp is not lost). */
  async read(): Promise<void> {
    const { ledger, client, deviceId } = this.deps;
    const cursor = ledger.inboxCursor(deviceId);
    if (cursor === undefined) {
      // A phone added now: its past inbox is its own business, the gateway's starts here.
      await ledger.setInboxCursor(deviceId, this.deps.clock.now());
      return;
    }
    const fresh: PhoneInboxMessage[] = [];
    for (let offset = 0; ; offset += INBOX_PAGE) {
      const page = await client.inbox(new Date(cursor), INBOX_PAGE, offset);
      fresh.push(...page);
      if (page.length < INBOX_PAGE) break;
    }
    let newest = cursor;
    // Oldest first, so the cursor only moves past what is stored.
    for (const message of fresh.reverse()) {
      const createdAt = Date.parse(message.createdAt);
      const content = inboxContentOf(message);
      if (content) {
        await this.take(message.id, message.sender, content, message.createdAt, message.simNumber);
      } else if (message.type === DATA_SMS_TYPE) {
        this.deps.logger.warn(
          'a data SMS longer than the inbox shows: only the phone webhook brings it whole',
          {
            phoneInboxId: message.id,
          },
        );
      }
      if (createdAt > newest) newest = createdAt;
    }
    if (newest > cursor) await ledger.setInboxCursor(deviceId, newest);
  }

  /**
   * One incoming SMS or data SMS, from the inbox or a webhook. `appId` is the app's inbox id
   * ("text:<hash>", "data:<hash>") or the webhook's messageId (the same hash in hex:
   * modules/receiver/ReceiverService.kt); the inbox's own content-derived id keeps it stored once
   * across restarts as well.
   */
  async take(
    appId: string,
    sender: string,
    content: IncomingContent,
    createdAt: string,
    simNumber?: number,
  ): Promise<void> {
    const key = incomingKey(appId);
    if (this.seen.has(key)) return;
    const epochMs = Date.parse(createdAt);
    const at = Number.isNaN(epochMs) ? this.deps.clock.now() : epochMs;
    const text = deliverOfText(
      sender,
      content.kind === 'text' ? content.text : '',
      at,
      offsetMinutesOf(createdAt),
    );
    await this.deps.receive(
      this.deps.deviceId,
      simNumber ?? 1,
      // 8-bit user data without text: the inbox stores it as DATA_SMS, as our own modems' data SMS.
      content.kind === 'text'
        ? text
        : { ...withoutText(text), encoding: '8bit', dataCodingScheme: 0x04, bytes: content.bytes },
    );
    this.seen.add(key);
    if (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.values().next().value as string);
  }
}

/**
 * GET /inbox's contentPreview (modules/incoming/IncomingMessagesService.kt toPreview): the text
 * of an SMS; a data SMS's first 64 bytes in hex, with "..." when there are more (then undefined:
 * only its webhook carries it whole).
 */
function inboxContentOf(message: PhoneInboxMessage): IncomingContent | undefined {
  if (message.type === SMS_TYPE) return { kind: 'text', text: message.contentPreview };
  if (message.type !== DATA_SMS_TYPE || !/^(?:[0-9a-f]{2})+$/i.test(message.contentPreview)) return undefined;
  return { kind: 'data', bytes: Uint8Array.from(Buffer.from(message.contentPreview, 'hex')) };
}

function withoutText<T extends { text?: string }>(deliver: T): Omit<T, 'text'> {
  const { text: _text, ...rest } = deliver;
  return rest;
}

/** "text:-1234" (inbox, signed decimal) and "fffffb2e" (webhook, unsigned hex) name the same SMS. */
export function incomingKey(appId: string): string {
  const decimal = /^(?:text|data):(-?\d+)$/.exec(appId)?.[1];
  return decimal === undefined ? appId.toLowerCase() : (Number(decimal) >>> 0).toString(16);
}

/** The phone writes its own offset ("…+02:00", "…Z"): the SMS's zone as it saw it. */
function offsetMinutesOf(date: string): number | undefined {
  if (date.endsWith('Z')) return 0;
  const match = /([+-])(\d{2}):(\d{2})$/.exec(date);
  if (!match) return undefined;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}
