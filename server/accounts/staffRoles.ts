import { type Scope, Scopes } from '../auth/scopes.js';

/**
 * What each person signing in to the window may do (docs/accounts-plans-routing.md). A role
 * limits the scopes of everything its person holds: the Basic login and every token issued to
 * them, checked on each request, so a changed role takes effect at once.
 */
export const StaffRoles = ['owner', 'operator', 'viewer'] as const;
export type StaffRole = (typeof StaffRoles)[number];

/** Read-only: every list and read scope, the export of what can be read, and the audit trail. */
const viewerScopes: readonly Scope[] = [
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
];

const scopesByRole: Record<StaffRole, ReadonlySet<Scope>> = {
  owner: new Set(Scopes.filter((scope) => scope !== 'tokens:refresh')),
  operator: new Set(operatorScopes),
  viewer: new Set(viewerScopes),
};

export function roleAllows(role: StaffRole, scope: Scope): boolean {
  return scopesByRole[role].has(scope);
}

/** The scopes a role allows, for the window to show only what its person may use. */
export function scopesOfRole(role: StaffRole): Scope[] {
  return [...scopesByRole[role]];
}

export function isStaffRole(value: string): value is StaffRole {
  return (StaffRoles as readonly string[]).includes(value);
}
