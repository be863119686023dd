import { z } from 'zod';
import { toIsoWithOffset } from '../../../../clock/isoTime.js';
import type { MessageRecord } from '../../../../contract/domain/message.js';
import { type MessageView, messageViewSchema } from '../../../../contract/domain/messageView.js';
import {
  conversationListQuerySchema,
  conversationReplySchema,
  conversationStateSchema,
  conversationViewSchema,
  threadMessageViewSchema,
  threadQuerySchema,
} from '../../../../contract/schemas/deskSchemas.js';
import type {
  ConversationService,
  ThreadMessage,
} from '../../../../services/desk/conversations/conversationService.js';
import type { ConversationSummary } from '../../../../services/desk/conversations/conversationStore.js';
import type { ApiBuilder } from '../../defineRoute.js';
import { authErrors, errorResponses } from '../../responses.js';

const tag = 'Conversations (extension)';

export function conversationView(
  summary: ConversationSummary,
  name?: string,
): z.output<typeof conversationViewSchema> {
  return {
    number: summary.peer,
    name,
    lastMessageAt: toIsoWithOffset(summary.lastAt),
    lastDirection: summary.lastDirection,
    lastText: summary.lastText,
    replyDeviceId: summary.replyDeviceId,
    replySimNumber: summary.replySimNumber,
    unread: summary.unread,
    archived: summary.archived,
  };
}

export function threadMessageView(message: ThreadMessage): z.output<typeof threadMessageViewSchema> {
  return {
    ...message,
    at: toIsoWithOffset(message.at),
    scheduleAt: message.scheduleAt === undefined ? undefined : toIsoWithOffset(message.scheduleAt),
  };
}

/**
 * Our extension (docs/desk.md "Conversations"): messages of both directions by the other party,
 * read/unread and archive marks, and a reply from the modem and SIM the party wrote to.
 */
export function registerConversationRoutes(
  api: ApiBuilder,
  deps: {
    conversations: ConversationService;
    namesOf: (numbers: readonly string[]) => Record<string, string>;
    /** A message as the API shows it (`MessageService.view`). */
    messageView: (message: MessageRecord) => MessageView;
  },
): void {
  const { conversations } = deps;
  api.route({
    method: 'get',
    path: '/gateway/v1/conversations',
    summary: 'List conversations, newest message first, with unread counts',
    tag,
    access: { scope: 'conversations:read' },
    query: conversationListQuerySchema,
    responses: {
      200: {
        description: 'A page of conversations; X-Total-Count has the total',
        schema: z.array(conversationViewSchema),
      },
      ...errorResponses(400, ...authErrors),
    },
    async handle({ query }) {
      const page = conversations.list(query);
      const names = deps.namesOf(page.items.map((summary) => summary.peer));
      return {
        status: 200,
        body: page.items.map((summary) => conversationView(summary, names[summary.peer])),
        headers: { 'X-Total-Count': String(page.total) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/conversations/:number',
    summary: 'One thread, newest first: received SMS and sent messages with their state',
    tag,
    access: { scope: 'conversations:read' },
    query: threadQuerySchema,
    responses: {
      200: {
        description: 'A page of the thread (empty for a party never heard of); X-Total-Count has the total',
        schema: z.array(threadMessageViewSchema),
      },
      ...errorResponses(400, ...authErrors),
    },
    async handle({ params, query }) {
      const page = conversations.thread(params.number ?? '', query.limit, query.offset);
      return {
        status: 200,
        body: page.items.map(threadMessageView),
        headers: { 'X-Total-Count': String(page.total) },
      };
    },
  });

  for (const [verb, read] of [
    ['read', true],
    ['unread', false],
  ] as const) {
    api.route({
      method: 'post',
      path: `/gateway/v1/conversations/:number/${verb}`,
      summary: `Mark a conversation ${verb}`,
      tag,
      access: { scope: 'conversations:write' },
      responses: {
        200: { description: 'The conversation', schema: conversationViewSchema },
        ...errorResponses(404, ...authErrors),
      },
      async handle({ params }) {
        return {
          status: 200,
          body: conversationView(await conversations.markRead(params.number ?? '', read)),
        };
      },
    });
  }

  api.route({
    method: 'post',
    path: '/gateway/v1/conversations/:number/archive',
    summary: 'Archive a conversation (archived: true) or bring it back (false); a new SMS brings it back too',
    tag,
    access: { scope: 'conversations:write' },
    body: conversationStateSchema,
    responses: {
      200: { description: 'The conversation', schema: conversationViewSchema },
      ...errorResponses(400, 404, 415, ...authErrors),
    },
    async handle({ params, body }) {
      return {
        status: 200,
        body: conversationView(await conversations.archive(params.number ?? '', body.archived)),
      };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/conversations/:number/reply',
    summary: 'Reply from the modem and SIM the party last wrote to; marks the conversation read',
    tag,
    access: { scope: 'messages:send' },
    body: conversationReplySchema,
    responses: {
      202: { description: 'Queued', schema: messageViewSchema },
      ...errorResponses(400, 404, 415, 503, ...authErrors),
    },
    async handle({ params, body }) {
      const message = await conversations.reply(params.number ?? '', body.text);
      return { status: 202, body: deps.messageView(message) };
    },
  });
}
