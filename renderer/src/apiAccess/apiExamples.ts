import { type Scope, Scopes } from '../../../server/contract/domain/scopes.js';

/** Scopes a person may ask for; `tokens:refresh` is the gateway's own, put into refresh tokens. */
type RequestableScope = Exclude<Scope, 'tokens:refresh'>;

/** What each scope allows, in words: typed by the scope list, so a new scope cannot be missing. */
const scopeMeanings: Record<RequestableScope, string> = {
  'all:any': 'Everything',
  'messages:send': 'Send messages',
  'messages:read': 'Read one message',
  'messages:list': 'List messages',
  'messages:cancel': 'Cancel messages',
  'messages:export': 'Export the inbox as webhooks',
  'inbox:list': 'List received messages',
  'inbox:read': 'Read received messages',
  'inbox:refresh': 'Re-read modem storage',
  'devices:list': 'List modems',
  'devices:delete': 'Remove modems',
  'webhooks:list': 'List webhooks',
  'webhooks:write': 'Add webhooks',
  'webhooks:delete': 'Remove webhooks',
  'settings:read': 'Read settings',
  'settings:write': 'Change settings',
  'logs:read': 'Read logs',
  'backup:create': 'Download a copy of the whole database',
  'tokens:manage': 'Create and revoke tokens',
  'contacts:read': 'Read contacts and groups',
  'contacts:write': 'Change and import contacts',
  'templates:read': 'Read templates',
  'templates:write': 'Change templates',
  'campaigns:read': 'Follow campaigns',
  'campaigns:send': 'Send campaigns',
  'campaigns:cancel': 'Cancel campaigns',
  'conversations:read': 'Read conversations',
  'conversations:write': 'Reply in, mark and archive conversations',
  'optouts:read': 'Read the opt-out list',
  'optouts:write': 'Change the opt-out list',
  'rules:read': 'Read and try auto-reply rules',
  'rules:write': 'Change auto-reply rules',
  'users:manage': 'Add, change and remove people',
  'apps:manage': 'Add, change and remove apps',
  'audit:read': 'Read the audit trail',
  'metrics:read': 'Read the Prometheus metrics (GET /metrics)',
  'verify:send': 'Send a verification code by SMS',
  'verify:check': 'Check a verification code',
  'mcp:use': 'Connect an AI agent (MCP); each tool also needs its own scope',
};

/** The token form's choices, in the gateway's scope order. */
export const tokenScopes = Scopes.filter(
  (scope): scope is RequestableScope => scope !== 'tokens:refresh',
).map((scope) => ({ scope, meaning: scopeMeanings[scope] }));

/** POSIX shell single quoting: close, escaped quote, reopen. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A curl line that sends one SMS through this gateway, with a Bearer token when one is at hand
 * and otherwise the Basic user (the password left for the reader to fill in).
 */
export function curlSendExample(baseUrl: string, auth: { token?: string; username?: string }): string {
  const url = `${baseUrl.replace(/\/$/, '')}/messages`;
  const credentials = auth.token
    ? `-H ${shellQuote(`Authorization: Bearer ${auth.token}`)}`
    : `-u ${shellQuote(`${auth.username ?? 'USERNAME'}:PASSWORD`)}`;
  const body = JSON.stringify({
    textMessage: { text: 'Hello from the SMS gateway' },
    phoneNumbers: ['+15551234567'],
  });
  return `curl -X POST ${shellQuote(url)} ${credentials} -H 'Content-Type: application/json' -d ${shellQuote(body)}`;
}
