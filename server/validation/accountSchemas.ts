import { z } from 'zod';
import { StaffRoles } from '../accounts/staffRoles.js';
import { Scopes } from '../auth/scopes.js';
import { pageQuery, timeRangeQuery } from './primitives.js';

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

export const staffViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: staffRoleSchema,
  createdAt: z.string().optional().describe('ISO 8601; absent for the owner login'),
  createdBy: z.string().optional(),
});
export type StaffView = z.infer<typeof staffViewSchema>;

export const meViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: staffRoleSchema,
  scopes: z.array(z.enum(Scopes)).describe('what these credentials may do: their scopes within the role'),
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
