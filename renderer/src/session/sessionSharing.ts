import type { Session } from './session.js';

/**
 * A browser session is kept in sessionStorage, which each tab has its own of: a second tab
 * opened on the gateway would ask for the password again. Tabs of the same origin instead hand
 * the session over on a BroadcastChannel (same-origin only, nothing written to disk): a new
 * tab asks, a signed-in tab answers; signing out in one tab signs out every tab.
 */
const channelName = 'sms-gateway.session';

type SessionMessage = { kind: 'ask' } | { kind: 'session'; session: Session } | { kind: 'ended' };

/** How long a new tab waits for a signed-in tab to answer before showing the sign-in form. */
export const askTimeoutMs = 400;

function openChannel(): BroadcastChannel | undefined {
  return typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(channelName);
}

function usable(session: Session | undefined, nowMs: number): session is Session {
  return (
    session !== undefined &&
    typeof session.token === 'string' &&
    typeof session.baseUrl === 'string' &&
    (session.expiresAt === undefined || Date.parse(session.expiresAt) > nowMs)
  );
}

/** The session of another open tab, or undefined when none answers in time. */
export function askOtherTabs(timeoutMs = askTimeoutMs): Promise<Session | undefined> {
  const channel = openChannel();
  if (!channel) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const finish = (session: Session | undefined) => {
      clearTimeout(timer);
      channel.close();
      resolve(session);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    channel.onmessage = (event: MessageEvent<SessionMessage>) => {
      if (event.data.kind === 'session' && usable(event.data.session, Date.now())) finish(event.data.session);
    };
    channel.postMessage({ kind: 'ask' } satisfies SessionMessage);
  });
}

/**
 * While this tab is signed in: answers other tabs' asks with `session`, and calls `onEnded`
 * when another tab signs out. Returns the function that stops it.
 */
export function serveSession(session: Session, onEnded: () => void): () => void {
  const channel = openChannel();
  if (!channel) return () => undefined;
  channel.onmessage = (event: MessageEvent<SessionMessage>) => {
    if (event.data.kind === 'ask') channel.postMessage({ kind: 'session', session } satisfies SessionMessage);
    if (event.data.kind === 'ended') onEnded();
  };
  return () => channel.close();
}

/** Tells the other tabs this browser signed out. */
export function announceSignOut(): void {
  const channel = openChannel();
  if (!channel) return;
  channel.postMessage({ kind: 'ended' } satisfies SessionMessage);
  channel.close();
}
