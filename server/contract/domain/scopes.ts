/**
 * The spec's scope table (Authentication) plus the inbox scopes upstream's inbox routes need
 * (docs/decisions.md#tokens-and-scopes). `all:any` holds every scope; `tokens:refresh` is a system
 * scope put into refresh tokens only, never requested.
 */
export const Scopes = [
  'all:any',
  'messages:send',
  'messages:read',
  'messages:list',
  'messages:cancel',
  'messages:export',
  'devices:list',
  'devices:delete',
  'webhooks:list',
  'webhooks:write',
  'webhooks:delete',
  'settings:read',
  'settings:write',
  'logs:read',
  // A backup holds the whole database (messages, inbox, contacts), more than settings:write.
  'backup:create',
  'tokens:manage',
  'tokens:refresh',
  'inbox:list',
  'inbox:read',
  'inbox:refresh',
  // The desk (server/services/desk/): address book, templates, campaigns.
  'contacts:read',
  'contacts:write',
  'templates:read',
  'templates:write',
  'campaigns:read',
  'campaigns:send',
  'campaigns:cancel',
  // Ours (docs/desk.md "Conversations", "Opt-out", "Auto-reply rules").
  'conversations:read',
  'conversations:write',
  'optouts:read',
  'optouts:write',
  'rules:read',
  'rules:write',
  // Ours (docs/accounts-plans-routing.md): the people who use the window, and who did what.
  'users:manage',
  'apps:manage',
  'audit:read',
  // Ours (docs/metrics.md): GET /metrics for a Prometheus scraper, nothing else.
  'metrics:read',
  // Ours (docs/verification.md): send a verification code, and check one.
  'verify:send',
  'verify:check',
  // Ours (docs/mcp.md): the MCP endpoint for AI agents; each tool also needs its own scope.
  'mcp:use',
] as const;
export type Scope = (typeof Scopes)[number];

export function isScope(value: string): value is Scope {
  return (Scopes as readonly string[]).includes(value);
}
