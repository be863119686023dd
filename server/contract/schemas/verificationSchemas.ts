import { z } from 'zod';
import { MaxPhoneNumberLength } from './messageSchemas.js';

export const VerificationLimits = {
  codeLength: { min: 4, max: 10, default: 6 },
  ttlSeconds: { min: 60, max: 3_600, default: 600 },
  /** Wrong codes one verification takes before it is spent. */
  attempts: 5,
} as const;

export const VerificationStatuses = ['pending', 'approved', 'expired', 'max-attempts'] as const;
export type VerificationStatus = (typeof VerificationStatuses)[number];

/** POST /gateway/v1/verifications (docs/verification.md). */
export const verificationRequestSchema = z.object({
  phoneNumber: z.string().min(1, 'must not be empty').max(MaxPhoneNumberLength),
  template: z
    .string()
    .min(1)
    .max(1_000)
    .refine((text) => text.includes('{code}'), 'must contain {code}, where the code goes')
    .optional()
    .describe('the SMS text, in any language, with {code}; default "Your verification code is {code}"'),
  length: z
    .number()
    .int()
    .min(VerificationLimits.codeLength.min)
    .max(VerificationLimits.codeLength.max)
    .default(VerificationLimits.codeLength.default)
    .describe('digits in the code'),
  ttl: z
    .number()
    .int()
    .min(VerificationLimits.ttlSeconds.min)
    .max(VerificationLimits.ttlSeconds.max)
    .default(VerificationLimits.ttlSeconds.default)
    .describe('seconds the code is valid, and the SMS may wait to be sent'),
  channel: z.enum(['sms']).default('sms'),
});
export type VerificationRequest = z.output<typeof verificationRequestSchema>;

export const verificationCheckSchema = z.object({
  code: z.string().regex(/^\d{1,10}$/, 'must be the digits of the code'),
});

export const verificationViewSchema = z.object({
  id: z.string(),
  phoneNumber: z.string(),
  channel: z.literal('sms'),
  status: z.enum(VerificationStatuses),
  attemptsLeft: z.number().int(),
  /** The SMS that carries the code (GET /messages/{id}; its text shows the code masked). */
  messageId: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type VerificationView = z.output<typeof verificationViewSchema>;

export const verificationCheckViewSchema = verificationViewSchema.extend({
  /** This check's answer: approved once, for the right code while the verification was pending. */
  result: z.enum(['approved', 'denied']),
});
