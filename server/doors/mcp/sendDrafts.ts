import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import { type Caller, callerKey } from '../../contract/domain/caller.js';
import type { MessageRequest } from '../../contract/schemas/messageSchemas.js';

/**
 * The SMS an agent drafted with send_sms while sends need confirming (docs/mcp.md): each waits
 * for confirm_send by the same caller, is sent once at most and lapses after `lifetimeMs`. Kept
 * in memory: nothing was accepted yet, so a restart loses no message, only the draft.
 */
export interface SendDrafts {
  add(request: MessageRequest, caller: Caller): { id: string; expiresAt: number };
  /** The draft, removed; undefined when unknown, lapsed or another caller's. */
  take(id: string, caller: Caller): MessageRequest | undefined;
}

interface Draft {
  request: MessageRequest;
  owner: string;
  expiresAt: number;
}

export const draftLifetimeMs = 10 * 60_000;
/** Drafts kept at once: an agent looping on send_sms must not fill the memory. */
const mostDrafts = 1_000;

export function createSendDrafts(clock: Pick<Clock, 'now'>, lifetimeMs = draftLifetimeMs): SendDrafts {
  const drafts = new Map<string, Draft>();
  const dropLapsed = (now: number) => {
    for (const [id, draft] of drafts) if (draft.expiresAt <= now) drafts.delete(id);
  };
  return {
    add(request, caller) {
      const now = clock.now();
      dropLapsed(now);
      // Oldest first in a Map: the one dropped when full is the one closest to lapsing.
      if (drafts.size >= mostDrafts) drafts.delete(drafts.keys().next().value ?? '');
      const id = `draft_${randomBytes(12).toString('base64url')}`;
      const expiresAt = now + lifetimeMs;
      drafts.set(id, { request, owner: callerKey(caller), expiresAt });
      return { id, expiresAt };
    },
    take(id, caller) {
      const draft = drafts.get(id);
      if (!draft || draft.owner !== callerKey(caller) || draft.expiresAt <= clock.now()) return undefined;
      drafts.delete(id);
      return draft.request;
    },
  };
}
