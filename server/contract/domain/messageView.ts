import { z } from 'zod';
import { toIsoWithOffset } from '../../clock/isoTime.js';
import { type MessageRecord, MessageStates, RecipientFailureCodes } from './message.js';
import { shownText } from './shownText.js';
import { stateTimes } from './stateTimes.js';

/**
 * The API's "message state" record (docs/decisions.md#message-states), projected from the stored message.
 * Content is included in the enqueue response and GET by id, and in lists only on request.
 */
export const messageStateSchema = z.enum(MessageStates);

export const messageViewSchema = z.object({
  id: z.string(),
  deviceId: z
    .string()
    .optional()
    .describe(
      'the device that took the message, the one it is bound to, or the only one there is; always one GET /devices lists',
    ),
  /** Ours: present (true) when the message went through the built-in simulated modem. */
  simulated: z.literal(true).optional(),
  /** Ours: "server" when fleet mode fetched the message from the private server. */
  source: z.literal('server').optional(),
  state: messageStateSchema,
  isHashed: z.boolean(),
  isEncrypted: z.boolean(),
  recipients: z.array(
    z.object({
      phoneNumber: z.string(),
      state: messageStateSchema,
      error: z.string().optional(),
      /** Ours: the failure as a code (`RecipientFailureCodes`), with the modem's number where there is one. */
      failure: z
        .object({ code: z.enum(RecipientFailureCodes), modemCode: z.number().int().optional() })
        .optional(),
    }),
  ),
  states: z.partialRecord(messageStateSchema, z.string()),
  /** When the gateway accepted it; in every state, as upstream's clients read it (client-go's MessageState.CreatedAt, no omitempty). */
  createdAt: z.string(),
  textMessage: z.object({ text: z.string() }).optional(),
  dataMessage: z.object({ data: z.string(), port: z.number().int() }).optional(),
  /** Upstream's MMS as it was asked for; each attachment by its type, name and size (the bytes stay stored, not echoed). */
  mmsMessage: z
    .object({
      subject: z.string().optional(),
      text: z.string().optional(),
      attachments: z.array(
        z.object({ contentType: z.string(), name: z.string().optional(), size: z.number().int() }),
      ),
    })
    .optional(),
  priority: z.number().int().optional(),
  simNumber: z.number().int().optional(),
  withDeliveryReport: z.boolean().optional(),
  validUntil: z.string().optional(),
  scheduleAt: z.string().optional(),
});

export type MessageView = z.output<typeof messageViewSchema>;

/**
 * `unassignedDeviceId` stands in while no modem has taken the message and none was requested
 * (Pending, Cancelled): a device GET /devices lists, or none, never an id a client cannot look
 * up. client-rs requires `deviceId` on every message state, so the caller names one whenever
 * it can (`MessageService.view`).
 */
export function toMessageView(
  message: MessageRecord,
  includeContent: boolean,
  unassignedDeviceId: string | undefined,
): MessageView {
  const deviceId = assignedDeviceId(message) ?? unassignedDeviceId;
  const view: MessageView = {
    ...viewWithoutContent(message),
    ...(deviceId === undefined ? {} : { deviceId }),
  };
  return includeContent ? { ...view, ...contentMembers(message) } : view;
}

/** The modem that took the message, else the one it was asked for; none while neither is known. */
export function assignedDeviceId(message: MessageRecord): string | undefined {
  return message.deviceId ?? message.requestedDeviceId;
}

function viewWithoutContent(message: MessageRecord): Omit<MessageView, 'deviceId'> {
  const states = stateTimes(message.states);
  return {
    id: message.id,
    simulated: message.simulated,
    source: message.source,
    state: message.state,
    // Upstream hashes content of old messages for privacy; we keep content, so never hashed.
    isHashed: false,
    isEncrypted: message.isEncrypted,
    recipients: message.recipients.map((recipient) => ({
      phoneNumber: recipient.phoneNumber,
      state: recipient.state,
      error: recipient.error,
      failure: recipient.failure,
    })),
    states,
    createdAt: toIsoWithOffset(message.createdAt),
    priority: message.priority,
    simNumber: message.simNumber,
    withDeliveryReport: message.withDeliveryReport,
    validUntil: message.validUntil === undefined ? undefined : toIsoWithOffset(message.validUntil),
    scheduleAt: message.scheduleAt === undefined ? undefined : toIsoWithOffset(message.scheduleAt),
  };
}

function contentMembers(
  message: MessageRecord,
): Pick<MessageView, 'textMessage' | 'dataMessage' | 'mmsMessage'> {
  const { content } = message;
  switch (content.kind) {
    case 'text':
      return { textMessage: { text: shownText(message, content.text) } };
    case 'data':
      return { dataMessage: { data: content.data, port: content.port } };
    case 'mms':
      return {
        mmsMessage: { subject: content.subject, text: content.text, attachments: content.attachments },
      };
  }
}
