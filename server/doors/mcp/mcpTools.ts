import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Caller } from '../../contract/domain/caller.js';
import type { IncomingRecord } from '../../contract/domain/incoming.js';
import { MessageStateFilters } from '../../contract/domain/message.js';
import type { Scope } from '../../contract/domain/scopes.js';
import type { DeviceView } from '../../contract/schemas/deviceViewSchema.js';
import {
  MaxPhoneNumberLength,
  MaxTextLength,
  messageRequestSchema,
} from '../../contract/schemas/messageSchemas.js';
import { parseOrThrow } from '../../contract/schemas/requestParsing.js';
import {
  verificationCheckSchema,
  verificationRequestSchema,
} from '../../contract/schemas/verificationSchemas.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { InboxReads } from '../../services/inbox/inboxReads.js';
import type { MessageService } from '../../services/messages/messageService.js';
import { partsPerRecipient } from '../../services/plans/messageParts.js';
import type { VerificationService } from '../../services/verify/verificationService.js';
import type { SendDrafts } from './sendDrafts.js';

/**
 * The MCP tools (docs/mcp.md): each is one service call for the caller its token belongs to, so
 * an agent's messages are its app's, on its quota and within its SIMs, as over HTTP. A tool is
 * listed only to a token holding its scope.
 */
export interface McpToolDependencies {
  messages: Pick<MessageService, 'enqueue' | 'check' | 'get' | 'list' | 'view' | 'waits'>;
  inbox: InboxReads;
  /** Every device as GET /devices shows it: its modem's state, signal and SIM plan. */
  devices(): DeviceView[];
  verifications: Pick<VerificationService, 'start' | 'check'>;
  /** The staff's conversations (the desk), for a token that may read them. */
  conversations: {
    list(query: { search?: string; archived: boolean; limit: number; offset: number }): unknown[];
    thread(party: string, limit: number, offset: number): unknown[];
  };
  drafts: SendDrafts;
  /** `mcp.confirm_sends`: send_sms drafts, confirm_send sends. */
  confirmSends(): boolean;
  toIncomingView(record: IncomingRecord): unknown;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  /** A call changes something: it goes into the audit trail, as an API change does. */
  changes: boolean;
  annotations: ToolAnnotations;
  input: z.ZodObject;
  /** What the tool answers, as JSON; the id of what it made or read, for the audit trail. */
  run(args: unknown, caller: Caller): Promise<{ answer: unknown; subject?: string }>;
}

const page = {
  limit: z.number().int().min(1).max(100).default(20).describe('how many, newest first'),
  offset: z.number().int().min(0).default(0).describe('how many to skip'),
};

const sendInput = z.object({
  phoneNumbers: z
    .array(z.string().min(1).max(MaxPhoneNumberLength))
    .min(1)
    .max(100)
    .describe('recipients in international form, e.g. +15551234567'),
  text: z.string().min(1).max(MaxTextLength).describe('the SMS text; long texts go as several parts'),
  simNumber: z.number().int().min(1).max(255).optional().describe('the SIM slot to send from, 1 first'),
  deviceId: z.string().min(1).optional().describe('the device (list_modems) to send from'),
});

function tool<S extends z.ZodObject>(spec: {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  changes?: boolean;
  annotations: ToolAnnotations;
  input: S;
  run(args: z.output<S>, caller: Caller): Promise<{ answer: unknown; subject?: string }>;
}): McpTool {
  return {
    ...spec,
    changes: spec.changes ?? false,
    run: (args, caller) => spec.run(parseOrThrow(spec.input, args, 'arguments'), caller),
  };
}

export function mcpTools(deps: McpToolDependencies): McpTool[] {
  const { messages } = deps;
  const messageRequestOf = (args: z.output<typeof sendInput>) =>
    parseOrThrow(
      messageRequestSchema,
      {
        textMessage: { text: args.text },
        phoneNumbers: args.phoneNumbers,
        simNumber: args.simNumber,
        deviceId: args.deviceId,
      },
      'arguments',
    );
  const enqueue = async (request: ReturnType<typeof messageRequestOf>, caller: Caller) => {
    const message = await messages.enqueue(
      { message: request, skipPhoneValidation: false, deviceActiveWithinHours: 0 },
      caller,
    );
    return { answer: { sent: true, message: messages.view(message) }, subject: message.id };
  };
  /** Messages with why each waits, when it does: one look at the queue for them all. */
  const withWaits = <View extends { id: string }>(views: readonly View[], caller: Caller) => {
    const waits = messages.waits(
      views.map((view) => view.id),
      caller,
    );
    return views.map((view) => {
      const wait = waits[view.id];
      return wait ? { ...view, waiting: wait } : view;
    });
  };

  return [
    tool({
      name: 'send_sms',
      title: 'Send an SMS',
      description:
        'Queue an SMS to one or more numbers. When the gateway asks agents to confirm sends, this answers a draft ' +
        '(recipients, text, parts) and a confirmation id, and sends nothing: show the draft to your user and call ' +
        'confirm_send once they agree.',
      scope: 'messages:send',
      changes: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
      input: sendInput,
      async run(args, caller) {
        const request = messageRequestOf(args);
        if (!deps.confirmSends()) return enqueue(request, caller);
        // Every check a send makes (numbers, devices, the app's quota), storing nothing.
        const record = messages.check(
          { message: request, skipPhoneValidation: false, deviceActiveWithinHours: 0 },
          caller,
        );
        const draft = deps.drafts.add(request, caller);
        return {
          answer: {
            sent: false,
            confirmation: draft.id,
            expiresAt: new Date(draft.expiresAt).toISOString(),
            recipients: record.recipients.map((recipient) => recipient.phoneNumber),
            text: args.text,
            partsPerRecipient: partsPerRecipient(record.content),
            next: 'Show this draft to your user; call confirm_send with the confirmation once they agree.',
          },
          subject: draft.id,
        };
      },
    }),
    tool({
      name: 'confirm_send',
      title: 'Send a drafted SMS',
      description: 'Send the draft send_sms answered, once your user agreed. A draft is sent once at most.',
      scope: 'messages:send',
      changes: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
      input: z.object({ confirmation: z.string().min(1).max(100).describe('the id send_sms answered') }),
      async run(args, caller) {
        const request = deps.drafts.take(args.confirmation, caller);
        if (!request) {
          throw new GatewayError(
            ErrorCode.NotFound,
            'no such draft: it was sent, or it expired (call send_sms again)',
            { field: 'confirmation' },
          );
        }
        return enqueue(request, caller);
      },
    }),
    tool({
      name: 'get_message',
      title: 'Read a message state',
      description:
        "A message's state per recipient (Pending, Processed, Sent, Delivered, Failed) and, while it waits, why and until when.",
      scope: 'messages:read',
      annotations: { readOnlyHint: true },
      input: z.object({ id: z.string().min(1).max(100).describe('the message id send_sms answered') }),
      async run(args, caller) {
        const view = messages.view(messages.get(args.id, caller));
        return { answer: withWaits([view], caller)[0], subject: view.id };
      },
    }),
    tool({
      name: 'list_messages',
      title: 'List or search sent messages',
      description:
        'Messages this token may see, newest first, each with why it waits when it does; search finds a piece of the text or a number.',
      scope: 'messages:list',
      annotations: { readOnlyHint: true },
      input: z.object({
        state: z.enum(MessageStateFilters).optional(),
        search: z.string().min(1).max(200).optional().describe('a piece of the text or of a number'),
        ...page,
      }),
      async run(args, caller) {
        const listed = await messages.list(
          { state: args.state, search: args.search, limit: args.limit, offset: args.offset },
          { withContent: true },
          caller,
        );
        const views = JSON.parse(listed.json) as { id: string }[];
        return { answer: { total: listed.total, messages: withWaits(views, caller) } };
      },
    }),
    tool({
      name: 'list_inbox',
      title: 'Read received SMS',
      description:
        'Received messages this token may read, newest first; search finds a piece of the text or a sender.',
      scope: 'inbox:list',
      annotations: { readOnlyHint: true },
      input: z.object({
        search: z.string().min(1).max(200).optional().describe('a piece of the text or of the sender'),
        ...page,
      }),
      async run(args, caller) {
        const listed = await deps.inbox.list(
          { search: args.search, limit: args.limit, offset: args.offset },
          caller,
        );
        return { answer: { total: listed.total, messages: listed.items.map(deps.toIncomingView) } };
      },
    }),
    tool({
      name: 'list_modems',
      title: 'Modems and their state',
      description:
        'Each modem or phone: whether it can send now and why not, signal, network registration, SIM and plan use.',
      scope: 'devices:list',
      annotations: { readOnlyHint: true },
      input: z.object({}),
      async run() {
        return { answer: { devices: deps.devices() } };
      },
    }),
    tool({
      name: 'start_verification',
      title: 'Send a verification code',
      description:
        'Send a one-time code by SMS to a number; check what the person types with check_verification. The code is never shown to you.',
      scope: 'verify:send',
      changes: true,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
      input: verificationRequestSchema.omit({ channel: true }),
      async run(args, caller) {
        const verification = await deps.verifications.start({ ...args, channel: 'sms' }, caller);
        return { answer: verification, subject: verification.id };
      },
    }),
    tool({
      name: 'check_verification',
      title: 'Check a verification code',
      description: 'Whether the code a person typed is the one start_verification sent: approved or denied.',
      scope: 'verify:check',
      changes: true,
      annotations: { destructiveHint: false, idempotentHint: false },
      input: verificationCheckSchema.extend({ id: z.string().min(1).max(100) }),
      async run(args, caller) {
        return { answer: await deps.verifications.check(args.id, args.code, caller), subject: args.id };
      },
    }),
    tool({
      name: 'list_conversations',
      title: 'List conversations',
      description:
        "The staff's conversations by the other party, newest first, with unread counts; search finds a number or a contact's name.",
      scope: 'conversations:read',
      annotations: { readOnlyHint: true },
      input: z.object({
        search: z.string().min(1).max(200).optional(),
        archived: z.boolean().default(false),
        ...page,
      }),
      async run(args) {
        return { answer: { conversations: deps.conversations.list(args) } };
      },
    }),
    tool({
      name: 'read_conversation',
      title: 'Read a conversation',
      description: 'One party’s thread, newest first: received SMS and sent messages with their state.',
      scope: 'conversations:read',
      annotations: { readOnlyHint: true },
      input: z.object({ phoneNumber: z.string().min(1).max(MaxPhoneNumberLength), ...page }),
      async run(args) {
        return { answer: { messages: deps.conversations.thread(args.phoneNumber, args.limit, args.offset) } };
      },
    }),
  ];
}
