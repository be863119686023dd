/**
 * Every route of the spec's endpoint table, with the scope its scope table names, or the one our
 * decisions add for the inbox routes (docs/decisions.md#tokens-and-scopes; the spec leaves those
 * "not shown"). Each carries a probe: a request an authorised caller may send at any time without
 * disturbing other tests (unknown ids, invalid bodies, idempotent writes), so a scope check can
 * call every route with every token.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RouteAccess = { scope: string } | 'public' | 'refresh-token';

export interface RouteProbe {
  path: string;
  json?: unknown;
}

export interface SpecRoute {
  method: HttpMethod;
  /** The path as the OpenAPI document writes it, relative to the base. */
  path: string;
  access: RouteAccess;
  probe: RouteProbe;
  /**
   * The same probe at upstream's alias paths: /message, /device, /webhook, /inbox/export
   * (docs/decisions.md#mounts).
   */
  aliasProbes?: string[];
}

const period = { since: '2026-01-01T00:00:00.000Z', until: '2026-01-02T00:00:00.000Z' };
const probeWebhook = { id: 'probe-hook', url: 'https://receiver.example/probe', event: 'sms:received' };

export const specRoutes: readonly SpecRoute[] = [
  {
    method: 'POST',
    path: '/auth/token',
    access: { scope: 'tokens:manage' },
    probe: { path: '/auth/token', json: { scopes: ['tokens:manage'] } },
  },
  {
    method: 'POST',
    path: '/auth/token/refresh',
    access: 'refresh-token',
    probe: { path: '/auth/token/refresh' },
  },
  {
    method: 'DELETE',
    path: '/auth/token/{jti}',
    access: { scope: 'tokens:manage' },
    probe: { path: '/auth/token/probe-jti' },
  },
  {
    method: 'GET',
    path: '/devices',
    access: { scope: 'devices:list' },
    probe: { path: '/devices' },
    aliasProbes: ['/device'],
  },
  {
    method: 'DELETE',
    path: '/devices/{id}',
    access: { scope: 'devices:delete' },
    probe: { path: '/devices/no-such-device' },
    aliasProbes: ['/device/no-such-device'],
  },
  { method: 'GET', path: '/health', access: 'public', probe: { path: '/health' } },
  // Not in the spec's table; the app's OpenAPI document lists them and client-py calls them.
  { method: 'GET', path: '/health/live', access: 'public', probe: { path: '/health/live' } },
  { method: 'GET', path: '/health/ready', access: 'public', probe: { path: '/health/ready' } },
  { method: 'GET', path: '/health/startup', access: 'public', probe: { path: '/health/startup' } },
  { method: 'GET', path: '/inbox', access: { scope: 'inbox:list' }, probe: { path: '/inbox' } },
  {
    method: 'GET',
    path: '/inbox/{id}',
    access: { scope: 'inbox:read' },
    probe: { path: '/inbox/no-such-incoming-message' },
  },
  {
    method: 'GET',
    path: '/inbox/{id}/attachments/{partId}',
    access: { scope: 'inbox:read' },
    probe: { path: '/inbox/no-such-incoming-message/attachments/1' },
  },
  {
    method: 'POST',
    path: '/inbox/refresh',
    access: { scope: 'inbox:refresh' },
    probe: { path: '/inbox/refresh', json: {} },
  },
  {
    method: 'POST',
    path: '/messages/inbox/export',
    access: { scope: 'messages:export' },
    probe: { path: '/messages/inbox/export', json: period },
    aliasProbes: ['/inbox/export'],
  },
  { method: 'GET', path: '/logs', access: { scope: 'logs:read' }, probe: { path: '/logs' } },
  {
    method: 'GET',
    path: '/messages',
    access: { scope: 'messages:list' },
    probe: { path: '/messages' },
    aliasProbes: ['/message'],
  },
  {
    method: 'POST',
    path: '/messages',
    access: { scope: 'messages:send' },
    // No recipients: an authorised caller gets 400 and nothing is queued.
    probe: { path: '/messages', json: { phoneNumbers: [], textMessage: { text: 'probe' } } },
    aliasProbes: ['/message'],
  },
  {
    method: 'GET',
    path: '/messages/{id}',
    access: { scope: 'messages:read' },
    probe: { path: '/messages/no-such-message' },
    aliasProbes: ['/message/no-such-message'],
  },
  {
    method: 'DELETE',
    path: '/messages/{id}',
    access: { scope: 'messages:cancel' },
    probe: { path: '/messages/no-such-message' },
    aliasProbes: ['/message/no-such-message'],
  },
  { method: 'GET', path: '/settings', access: { scope: 'settings:read' }, probe: { path: '/settings' } },
  {
    method: 'PUT',
    path: '/settings',
    access: { scope: 'settings:write' },
    probe: { path: '/settings', json: {} },
  },
  {
    method: 'PATCH',
    path: '/settings',
    access: { scope: 'settings:write' },
    probe: { path: '/settings', json: {} },
  },
  {
    method: 'GET',
    path: '/webhooks',
    access: { scope: 'webhooks:list' },
    probe: { path: '/webhooks' },
    aliasProbes: ['/webhook'],
  },
  {
    method: 'POST',
    path: '/webhooks',
    access: { scope: 'webhooks:write' },
    probe: { path: '/webhooks', json: probeWebhook },
    aliasProbes: ['/webhook'],
  },
  {
    method: 'DELETE',
    path: '/webhooks/{id}',
    access: { scope: 'webhooks:delete' },
    probe: { path: `/webhooks/${probeWebhook.id}` },
    aliasProbes: [`/webhook/${probeWebhook.id}`],
  },
];

/** The scope a route needs, or undefined for public and refresh-token routes. */
export function requiredScope(route: SpecRoute): string | undefined {
  return typeof route.access === 'object' ? route.access.scope : undefined;
}

/** `POST /messages`, as the spec's table writes a row. */
export function routeName(route: Pick<SpecRoute, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/**
 * Scopes a client may request for a token: the spec's table, the inbox scopes
 * (docs/decisions.md#tokens-and-scopes) and the desk's.
 */
export const requestableScopes = [
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
  'backup:create',
  'tokens:manage',
  'inbox:list',
  'inbox:read',
  'inbox:refresh',
  'contacts:read',
  'contacts:write',
  'templates:read',
  'templates:write',
  'campaigns:read',
  'campaigns:send',
  'campaigns:cancel',
] as const;
