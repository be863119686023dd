import { type Scope, Scopes } from './scopes.js';

/**
 * What each person signing in to the window may do (docs/accounts-plans-routing.md). A role
 * limits the scopes of everything its person holds: the Basic login and every token issued to
 * them, checked on each request, so a changed role takes effect at once.
 */
export const StaffRoles = ['owner', 'operator', 'viewer'] as const;
export type StaffRole = (typeof StaffRoles)[number];

/** A person's role, or `app` for an app's own credentials (auth/appDirectory.ts). */
export const AccessRoles = [...StaffRoles, 'app'] as const;
export type AccessRole = (typeof AccessRoles)[number];

/**
 * Read-only: every list and read scope, the export of what can be read, and the audit trail.
 * `all:any` here is a route's requirement, not a grant: the live event stream asks for it (a
 * session of the window), and every person's window follows it.
 */
const viewerScopes: readonly Scope[] = [
  'all:any',
  'messages:read',
  'messages:list',
  'messages:export',
  'devices:list',
  'webhooks:list',
  'settings:read',
  'logs:read',
  'inbox:list',
  'inbox:read',
  'contacts:read',
  'templates:read',
  'campaigns:read',
  'conversations:read',
  'optouts:read',
  'rules:read',
  'audit:read',
];

/** Send, reply, contacts and campaigns, on top of reading. */
const operatorScopes: readonly Scope[] = [
  ...viewerScopes,
  'messages:send',
  'messages:cancel',
  'inbox:refresh',
  'contacts:write',
  'templates:write',
  'campaigns:send',
  'campaigns:cancel',
  'conversations:write',
  'optouts:write',
  'mcp:use',
];

/**
 * An app: the spec's API for its own messages, webhooks, inbox (what its incoming rule hears),
 * tokens, verification codes and the MCP endpoint, and nothing of the gateway's running (people, settings, logs, the desk).
 */
const appScopes: readonly Scope[] = [
  'messages:send',
  'messages:read',
  'messages:list',
  'messages:cancel',
  'messages:export',
  'inbox:list',
  'inbox:read',
  'devices:list',
  'webhooks:list',
  'webhooks:write',
  'webhooks:delete',
  'tokens:manage',
  'verify:send',
  'verify:check',
  'mcp:use',
];

const scopesByRole: Record<AccessRole, ReadonlySet<Scope>> = {
  owner: new Set(Scopes.filter((scope) => scope !== 'tokens:refresh')),
  operator: new Set(operatorScopes),
  viewer: new Set(viewerScopes),
  app: new Set(appScopes),
};

export function roleAllows(role: AccessRole, scope: Scope): boolean {
  return scopesByRole[role].has(scope);
}

export function isStaffRole(value: string): value is StaffRole {
  return (StaffRoles as readonly string[]).includes(value);
}
