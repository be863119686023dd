import { z } from 'zod';
import { isEncryptedField, MessageStateFilters } from '../domain/message.js';
import { dataPayloadProblem } from './dataPayload.js';
import { mmsContentSchema } from './mmsContent.js';
import {
  dateTime,
  pageQuery,
  queryBoolean,
  queryInteger,
  searchQuery,
  timeRangeQuery,
} from './primitives.js';

/**
 * POST /messages and the message queries (spec "Message", docs/decisions.md#sending-requests).
 * Optional fields accept null as "absent": clients in typed languages serialise unset fields as
 * null.
 */

/** Recipients per request: the spec leaves it open; 100 keeps one request's work bounded. */
/** A message's `priority`, as upstream's API bounds it (a signed byte). */
export const PriorityRange = { min: -128, max: 127 } as const;

export const MaxRecipients = 100;
/**
 * Text length: 39 concatenated GSM 7-bit parts of 153 characters (TS 23.040 §9.2.3.24.1, the
 * 6-octet concatenation header leaves 153 septets). Longer texts are refused up front.
 */
export const MaxTextLength = 39 * 153;
/**
 * A recipient as sent, also with skipPhoneValidation (a 200,000-digit number was once stored):
 * a plain number has at most 20 digits (TS 23.040 §9.1.2.5) plus formatting, and an encrypted
 * one is the Base64 ciphertext of such a number with its cipher header.
 */
export const MaxPhoneNumberLength = 256;
/** Upstream limits client-chosen ids to 36 characters (a UUID). */
export const MaxMessageIdLength = 36;

export const textContentSchema = z.object({
  text: z.string().min(1, 'must not be empty').max(MaxTextLength),
});

/**
 * `data` is checked in the request's refinement, not here: with `isEncrypted` it is ciphertext
 * of the Base64 text (client-py `android_sms_gateway/client.py` `_encrypt`, client-rs
 * `src/encryption.rs` encrypt the Base64 string), checked only once decrypted (decryptMessage).
 */
export const dataContentSchema = z.object({
  data: z.string().describe('Base64 bytes; with isEncrypted, the encrypted Base64 text'),
  port: z.number().int().min(0).max(65_535),
});

export const messageRequestSchema = z
  .object({
    id: z.string().min(1).max(MaxMessageIdLength).nullish(),
    deviceId: z.string().min(1).nullish(),
    message: z.string().min(1, 'must not be empty').max(MaxTextLength).nullish(),
    textMessage: textContentSchema.nullish(),
    dataMessage: dataContentSchema.nullish(),
    /** Upstream's MMS (mmsContent.ts); sent only through a phone whose app takes it. */
    mmsMessage: mmsContentSchema.nullish(),
    phoneNumbers: z
      .array(z.string().min(1, 'must not be empty').max(MaxPhoneNumberLength))
      .min(1)
      .max(MaxRecipients),
    simNumber: z.number().int().min(1).max(3).nullish(),
    ttl: z.number().int().min(1).nullish(),
    validUntil: dateTime.nullish(),
    withDeliveryReport: z.boolean().nullish(),
    priority: z.number().int().min(PriorityRange.min).max(PriorityRange.max).nullish(),
    isEncrypted: z.boolean().nullish(),
    /** Ours and upstream's extra: not sent before this instant; a past instant means now. */
    scheduleAt: dateTime.nullish(),
    /**
     * Our extension: send even to recipients on the opt-out list. Without it such a recipient
     * ends Failed with the error "opted out" and nothing reaches the modem for it.
     */
    ignoreOptOut: z
      .boolean()
      .nullish()
      .describe(
        'Our extension: send even to numbers on the opt-out list (default false: they fail as "opted out")',
      ),
  })
  .superRefine((request, context) => {
    const contents = (['textMessage', 'dataMessage', 'mmsMessage', 'message'] as const).filter(
      (field) => request[field] !== undefined && request[field] !== null,
    );
    if (contents.length !== 1) {
      context.addIssue({
        code: 'custom',
        path: [contents[1] ?? 'textMessage'],
        message:
          contents.length === 0
            ? 'one of textMessage, dataMessage, mmsMessage or message is required'
            : 'only one of textMessage, dataMessage, mmsMessage or message may be given',
      });
    }
    if (request.mmsMessage && request.isEncrypted) {
      context.addIssue({
        code: 'custom',
        path: ['isEncrypted'],
        message: 'an MMS cannot be end-to-end encrypted: send it without isEncrypted',
      });
    }
    const data = request.dataMessage?.data;
    if (data !== undefined) {
      const problem = request.isEncrypted
        ? isEncryptedField(data)
          ? undefined
          : 'must be an encrypted value ($aes-256-cbc/pbkdf2-sha1$…) when isEncrypted is true'
        : dataPayloadProblem(data);
      if (problem) context.addIssue({ code: 'custom', path: ['dataMessage', 'data'], message: problem });
    }
    if (request.ttl != null && request.validUntil != null) {
      context.addIssue({
        code: 'custom',
        path: ['validUntil'],
        message: 'must not be given together with ttl',
      });
    }
  });

export type MessageRequest = z.output<typeof messageRequestSchema>;

export const sendQuerySchema = z.object({
  skipPhoneValidation: queryBoolean.default(false),
  deviceActiveWithin: queryInteger(0, 24 * 365).default(0),
});

export const messageListQuerySchema = z.object({
  ...timeRangeQuery,
  ...pageQuery,
  state: z.enum(MessageStateFilters).optional(),
  deviceId: z.string().min(1).optional(),
  ...searchQuery,
  anyRecipientFailed: queryBoolean
    .optional()
    .describe('Our extension: only messages with a Failed recipient, also those that stay Sent'),
  includeContent: queryBoolean.default(false),
  /** Upstream's order (client-php ListMessages, client-rs MessagesSortOrder): `created_at` is oldest first. */
  sort: z
    .enum(['created_at', '-created_at'])
    .default('-created_at')
    .describe('created_at: oldest first; -created_at (default): newest first'),
});
