import type { Scope } from '../../server/contract/domain/scopes.js';

/**
 * Hash routing (`/ui/#/messages`): reloads and deep links work with the server's plain
 * index.html fallback, and nothing depends on where the UI is mounted.
 */
export const screens = [
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'conversations', label: 'Conversations' },
  { id: 'messages', label: 'Messages' },
  { id: 'inbox', label: 'Inbox' },
  { id: 'contacts', label: 'Contacts' },
  { id: 'templates', label: 'Templates' },
  { id: 'campaigns', label: 'Bulk send' },
  { id: 'rules', label: 'Auto-reply' },
  { id: 'optouts', label: 'Opt-outs' },
  { id: 'modems', label: 'Modems' },
  { id: 'routing', label: 'Routing' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'logs', label: 'Logs' },
  { id: 'settings', label: 'Settings' },
  { id: 'api', label: 'API access' },
  { id: 'people', label: 'People' },
] as const;

export type ScreenId = (typeof screens)[number]['id'];

/**
 * The scope a screen needs before the sidebar offers it (the role of who is signed in, see
 * session/person.ts); screens not named here show to everyone.
 */
export const screenScopes: Partial<Record<ScreenId, Scope>> = {
  webhooks: 'webhooks:list',
  logs: 'logs:read',
  settings: 'settings:read',
  routing: 'settings:read',
  api: 'tokens:manage',
  people: 'users:manage',
};

export function screenFromHash(hash: string): ScreenId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return screens.find((screen) => screen.id === id)?.id ?? 'dashboard';
}
