import { z } from 'zod';
import { base64 } from './primitives.js';

/**
 * `mmsMessage` of POST /message(s), as the app takes it (capcom6/android-sms-gateway, branch
 * "mms/extended-support": localserver/domain/messages/MmsMessage.kt and PostMessageRequest.kt
 * `validate`; docs/MMS.md): an optional subject and text, and attachments of a content type, an
 * optional file name and Base64 bytes. Text or at least one attachment; each attachment's Base64
 * at most 2 MiB of characters (the app's MAX_ATTACHMENT_BASE64_LENGTH, about 1.5 MB of bytes).
 */
export const MaxAttachmentBase64Length = 2 * 1024 * 1024;
/** Attachments per MMS: the app sets none; carriers refuse messages far smaller than ten such. */
export const MaxAttachments = 10;
/** A subject, as the MMS header's encoded-string value is kept short by every MMSC. */
export const MaxSubjectLength = 255;
/** An MMS text is one text/plain part: bounded like an SMS text's 39 parts. */
export const MaxMmsTextLength = 39 * 153;

/** `type/subtype` (RFC 6838 §4.2 names), parameters allowed after it, e.g. `text/plain; charset=utf-8`. */
const mediaType = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\s*;.*)?$/;

export const mmsAttachmentSchema = z.object({
  contentType: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(255)
    .regex(mediaType, 'must be a media type such as image/jpeg'),
  name: z.string().min(1).max(255).nullish(),
  data: z
    .string()
    .min(1, 'must not be empty')
    .max(
      MaxAttachmentBase64Length,
      `must be at most ${MaxAttachmentBase64Length} Base64 characters (about 1.5 MB)`,
    )
    .refine((data) => base64.safeParse(data).success, 'must be valid Base64'),
});

export const mmsContentSchema = z
  .object({
    subject: z.string().max(MaxSubjectLength).nullish(),
    text: z.string().max(MaxMmsTextLength).nullish(),
    attachments: z.array(mmsAttachmentSchema).max(MaxAttachments).nullish(),
  })
  .refine((mms) => (mms.text ?? '') !== '' || (mms.attachments ?? []).length > 0, {
    message: 'needs a text or at least one attachment',
    path: ['attachments'],
  });

export type MmsContentRequest = z.output<typeof mmsContentSchema>;
