import { z } from 'zod';
import { toIsoWithOffset } from '../../../clock/isoTime.js';
import { Scopes } from '../../../contract/domain/scopes.js';
import {
  type AuditEventView,
  auditActorsRequestSchema,
  auditEventViewSchema,
  auditQuerySchema,
  meViewSchema,
  ownPasswordSchema,
  type StaffView,
  staffAddSchema,
  staffChangeSchema,
  staffViewSchema,
} from '../../../contract/schemas/accountSchemas.js';
import { errorBodySchema } from '../../../contract/schemas/errorBodySchema.js';
import { holdsScope } from '../../../services/auth/accessControl.js';
import type { LoginChange } from '../../../services/auth/loginChange.js';
import type { SmppLogins } from '../../../services/auth/smppLogins.js';
import type { StaffDirectory, StaffMember } from '../../../services/auth/staffDirectory.js';
import type { TokenService } from '../../../services/auth/tokenService.js';
import type { AuditTrail } from '../../../store/auditTrail.js';
import { type ApiBuilder, callerOf } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/**
 * The people who sign in to the window, who the caller is, and the audit trail
 * (docs/accounts-plans-routing.md). A person's new password or removal ends every token
 * issued to them, as a changed owner login ends all (loginChange.ts).
 */
export interface StaffRouteDependencies {
  staff: StaffDirectory;
  smppLogins: Pick<SmppLogins, 'systemIdOf'>;
  login: Pick<LoginChange, 'changeOwnPassword'>;
  tokens: Pick<TokenService, 'revokeUser'>;
  audit: Pick<AuditTrail, 'list' | 'firstActors'>;
}

const tag = 'Accounts';

export function registerStaffRoutes(api: ApiBuilder, deps: StaffRouteDependencies): void {
  const { staff, tokens, smppLogins } = deps;
  const smppSystemIdOf = (holder: string) => {
    const systemId = smppLogins.systemIdOf(holder);
    return systemId === undefined ? {} : { smppSystemId: systemId };
  };
  const staffView = (member: StaffMember): StaffView => ({
    id: member.id,
    name: member.name,
    role: member.role,
    ...(member.createdAt === undefined ? {} : { createdAt: toIsoWithOffset(member.createdAt) }),
    ...(member.createdBy === undefined ? {} : { createdBy: member.createdBy }),
    ...smppSystemIdOf(member.id),
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/me',
    openToApps: true,
    summary: 'Who these credentials belong to, their role and what they may do',
    tag,
    access: 'authenticated',
    responses: { 200: { description: 'the caller', schema: meViewSchema }, ...errorResponses(...authErrors) },
    handle: async ({ principal }) => {
      if (!principal) throw new Error('an authenticated route without a principal');
      const { user } = principal;
      const scopes = Scopes.filter((scope) => scope !== 'all:any' && holdsScope(principal, scope));
      return {
        status: 200,
        body: { id: user.id, name: user.name, role: user.role, scopes, ...smppSystemIdOf(user.id) },
      };
    },
  });

  api.route({
    method: 'put',
    path: '/gateway/v1/me/password',
    summary: 'Change your own password; needs the current one, and ends the tokens issued to you',
    tag,
    // A session or the Basic login, not a narrow API token; an app's role does not hold it.
    access: { scope: 'all:any' },
    body: ownPasswordSchema,
    responses: {
      204: { description: 'Changed; the old password and your tokens no longer work' },
      ...errorResponses(400, ...authErrors),
      403: {
        description: 'currentPassword is not your current password, or these credentials may not',
        schema: errorBodySchema,
      },
      429: {
        description: 'Too many failed logins or wrong current passwords; see Retry-After',
        schema: errorBodySchema,
      },
    },
    handle: async ({ body, ctx, principal }) => {
      if (!principal) throw new Error('a scoped route without a principal');
      await deps.login.changeOwnPassword(callerOf(ctx), principal.user, body);
      return { status: 204 };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/users',
    summary: 'The people who sign in: the owner login first, then by name',
    tag,
    access: { scope: 'users:manage' },
    responses: {
      200: { description: 'everyone', schema: z.array(staffViewSchema) },
      ...errorResponses(...authErrors),
    },
    handle: async () => ({ status: 200, body: staff.list().map(staffView) }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/users',
    summary: 'Add a person with a name, a password and a role',
    tag,
    access: { scope: 'users:manage' },
    body: staffAddSchema,
    responses: {
      201: { description: 'the person added', schema: staffViewSchema },
      ...errorResponses(400, 409, ...authErrors),
    },
    handle: async ({ body, principal }) => {
      if (!principal) throw new Error('a scoped route without a principal');
      return { status: 201, body: staffView(await staff.add(body, principal.user)) };
    },
  });

  api.route({
    method: 'patch',
    path: '/gateway/v1/users/:id',
    summary: "Change a person's role or password; a new password ends their tokens",
    tag,
    access: { scope: 'users:manage' },
    body: staffChangeSchema,
    responses: {
      200: { description: 'the person as changed', schema: staffViewSchema },
      ...errorResponses(400, 404, ...authErrors),
    },
    handle: async ({ body, params }) => {
      const id = params.id ?? '';
      const member = await staff.update(id, body);
      if (body.password !== undefined) await tokens.revokeUser(id);
      return { status: 200, body: staffView(member) };
    },
  });

  api.route({
    method: 'delete',
    path: '/gateway/v1/users/:id',
    summary: 'Remove a person; their tokens end with them (the owner login cannot be removed)',
    tag,
    access: { scope: 'users:manage' },
    responses: { 204: { description: 'removed' }, ...errorResponses(400, 404, ...authErrors) },
    handle: async ({ params }) => {
      const id = params.id ?? '';
      await staff.remove(id);
      await tokens.revokeUser(id);
      return { status: 204 };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/audit',
    summary: 'Who changed what, newest first; by what it changed, by person and by time',
    tag,
    access: { scope: 'audit:read' },
    query: auditQuerySchema,
    responses: {
      200: {
        description: 'a page of events; X-Total-Count has the total',
        schema: z.array(auditEventViewSchema),
      },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ query }) => {
      const page = deps.audit.list(query);
      const body: AuditEventView[] = page.items.map((event) => ({
        ...event,
        at: toIsoWithOffset(event.at),
        ...(event.subject === '' ? { subject: undefined } : {}),
      }));
      return { status: 200, body, headers: { 'X-Total-Count': String(page.total) } };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/audit/actors',
    summary: 'Who first acted on each of these ids: who sent a message, added a contact… (for exports)',
    tag,
    access: { scope: 'audit:read' },
    body: auditActorsRequestSchema,
    responses: {
      200: {
        description: 'id → name, for the ids that have events',
        schema: z.record(z.string(), z.string()),
      },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ body }) => ({ status: 200, body: deps.audit.firstActors(body.subjects) }),
  });
}
