/** Scopes a token can hold: the spec's table plus the inbox scopes (docs/decisions.md#tokens-and-scopes). */
export const tokenScopes = [
  { scope: 'all:any', meaning: 'Everything' },
  { scope: 'messages:send', meaning: 'Send messages' },
  { scope: 'messages:read', meaning: 'Read one message' },
  { scope: 'messages:list', meaning: 'List messages' },
  { scope: 'messages:cancel', meaning: 'Cancel messages' },
  { scope: 'messages:export', meaning: 'Export the inbox as webhooks' },
  { scope: 'inbox:list', meaning: 'List received messages' },
  { scope: 'inbox:read', meaning: 'Read received messages' },
  { scope: 'inbox:refresh', meaning: 'Re-read modem storage' },
  { scope: 'devices:list', meaning: 'List modems' },
  { scope: 'devices:delete', meaning: 'Remove modems' },
  { scope: 'webhooks:list', meaning: 'List webhooks' },
  { scope: 'webhooks:write', meaning: 'Add webhooks' },
  { scope: 'webhooks:delete', meaning: 'Remove webhooks' },
  { scope: 'settings:read', meaning: 'Read settings' },
  { scope: 'settings:write', meaning: 'Change settings' },
  { scope: 'logs:read', meaning: 'Read logs' },
  { scope: 'backup:create', meaning: 'Download a copy of the whole database' },
  { scope: 'tokens:manage', meaning: 'Create and revoke tokens' },
  { scope: 'contacts:read', meaning: 'Read contacts and groups' },
  { scope: 'contacts:write', meaning: 'Change and import contacts' },
  { scope: 'templates:read', meaning: 'Read templates' },
  { scope: 'templates:write', meaning: 'Change templates' },
  { scope: 'campaigns:read', meaning: 'Follow campaigns' },
  { scope: 'campaigns:send', meaning: 'Send campaigns' },
  { scope: 'campaigns:cancel', meaning: 'Cancel campaigns' },
] as const;

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
