import { z } from 'zod';
import { Scopes } from '../domain/scopes.js';
import { maxSystemIdLength, smppPasswordLength } from '../domain/smppLogin.js';
import { AccessRoles, StaffRoles } from '../domain/staffRoles.js';
import { clockTime, pageQuery, timeRangeQuery, timeZone } from './primitives.js';
import { simTargetsSchema } from './simTargetSchema.js';

/** The people who sign in, the audit trail (docs/accounts-plans-routing.md). */

/** RFC 7617 §2: the user-id of a Basic pair cannot hold a colon. */
const staffName = z
  .string()
  .trim()
  .min(1, 'required')
  .max(64)
  .refine((name) => !name.includes(':'), 'must not contain ":"');

/** The same rule as the owner's login (credentials.ts): 8 characters or more. */
const staffPassword = z
  .string()
  .refine((password) => [...password].length >= 8, 'at least 8 characters')
  .refine((password) => [...password].length <= 256, 'at most 256 characters');

export const staffRoleSchema = z.enum(StaffRoles);

export const staffAddSchema = z.object({
  name: staffName,
  password: staffPassword,
  role: staffRoleSchema,
});

export const staffChangeSchema = z
  .object({ role: staffRoleSchema.optional(), password: staffPassword.optional() })
  .refine((change) => change.role !== undefined || change.password !== undefined, {
    message: 'name a role or a password to change',
    path: ['role'],
  });

/** PUT /gateway/v1/me/password body: the same rules as a password an owner sets. */
export const ownPasswordSchema = z.object({
  currentPassword: z.string().min(1, 'required').max(256),
  password: staffPassword,
});

const smppSystemIdSchema = z
  .string()
  .optional()
  .describe('the system_id of their SMPP login (PUT …/smpp-login); absent when they have none');

export const staffViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: staffRoleSchema,
  createdAt: z.string().optional().describe('ISO 8601; absent for the owner login'),
  createdBy: z.string().optional(),
  smppSystemId: smppSystemIdSchema,
});
export type StaffView = z.infer<typeof staffViewSchema>;

export const meViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(AccessRoles).describe('a person\'s role, or "app" for an app\'s credentials'),
  scopes: z.array(z.enum(Scopes)).describe('what these credentials may do: their scopes within the role'),
  smppSystemId: smppSystemIdSchema,
});
export type MeView = z.infer<typeof meViewSchema>;

export const auditQuerySchema = z.object({
  ...pageQuery,
  ...timeRangeQuery,
  subject: z.string().max(128).optional().describe('a message, contact, campaign… id'),
  actorId: z.string().max(64).optional(),
});

export const auditEventViewSchema = z.object({
  seq: z.number().int().describe('its place in the trail: later changes have higher numbers'),
  at: z.string(),
  actorId: z.string(),
  actorName: z.string(),
  action: z.string().describe('method and route, e.g. "POST /messages"'),
  summary: z.string(),
  subject: z.string().optional(),
  fields: z.array(z.string()).describe('the field names the change sent, never their values'),
});
export type AuditEventView = z.infer<typeof auditEventViewSchema>;

export const auditActorsRequestSchema = z.object({ subjects: z.array(z.string().max(128)).max(1000) });

export const appQuotaSchema = z
  .object({
    perDay: z.number().int().min(0).optional().describe('most messages per day; absent: no daily limit'),
    perMonth: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('most messages per month; absent: no monthly limit'),
    resetAt: clockTime.default('00:00').describe('when the day (and, on the 1st, the month) starts'),
    timeZone: timeZone.default('UTC'),
  })
  .refine((quota) => quota.perDay !== undefined || quota.perMonth !== undefined, {
    message: 'name perDay, perMonth or both',
    path: ['perDay'],
  });

const allowedDevices = simTargetsSchema
  .min(1)
  .describe("the modems, or SIM slots of modems, the app's messages may go through; absent: any");

export const incomingChoiceSchema = z
  .discriminatedUnion('mode', [
    z.object({ mode: z.literal('all') }),
    z.object({ mode: z.literal('none') }),
    z.object({ mode: z.literal('devices'), deviceIds: simTargetsSchema.min(1) }),
    z.object({ mode: z.literal('replies') }),
  ])
  .describe(
    "which incoming messages the app's webhooks hear: all, none, those arriving on these modems or SIM slots, or replies (from numbers the app's message reached last)",
  );

export const appAddSchema = z.object({
  name: staffName.describe("the app's Basic user name"),
  password: staffPassword,
  quota: appQuotaSchema.optional(),
  incoming: incomingChoiceSchema.optional(),
  allowedDeviceIds: allowedDevices.optional(),
});

export const appChangeSchema = z
  .object({
    password: staffPassword.optional(),
    quota: appQuotaSchema.nullable().optional(),
    incoming: incomingChoiceSchema.optional(),
    allowedDeviceIds: allowedDevices.nullable().optional(),
  })
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: 'name a password, a quota, an incoming rule or the allowed modems to change',
    path: ['password'],
  });

export const appViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  quota: z
    .object({
      perDay: z.number().optional(),
      perMonth: z.number().optional(),
      resetAt: z.string(),
      timeZone: z.string(),
      usage: z
        .array(
          z.object({
            period: z.enum(['day', 'month']),
            used: z.number().int().describe('SMS counted this period, one per recipient'),
            limit: z.number().int(),
            resetsAt: z.string().describe('when the period ends'),
          }),
        )
        .describe('how much of each period the app has used'),
    })
    .optional(),
  incoming: incomingChoiceSchema.optional(),
  allowedDeviceIds: simTargetsSchema.optional(),
  smppSystemId: smppSystemIdSchema,
});
export type AppView = z.infer<typeof appViewSchema>;

export const smppLoginRequestSchema = z.object({
  systemId: z
    .string()
    .optional()
    .describe(
      `1 to ${maxSystemIdLength} letters, digits, ".", "_" or "-"; absent: the one they have, or one made from their name`,
    ),
});

export const smppLoginIssuedSchema = z.object({
  systemId: z.string(),
  password: z.string().describe(`${smppPasswordLength} characters, shown this once`),
});
