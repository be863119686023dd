/**
 * Who asks a service for something, whatever way in they came by (HTTP, SMTP, SMPP, the desk,
 * fleet mode). Every way in turns its login into one of these and passes it on; the services
 * apply what follows from it (an app's quota, its allowed SIMs, what it may read) themselves,
 * so that no way in can skip them.
 *
 * - `gateway`: the gateway acting on its own behalf (auto-replies, call answers, messages the
 *   private server hands over): no app, no quota.
 * - `person`: a member of staff, or the owner's login; their messages belong to the default app.
 * - `app`: an app's login or one of its tokens: its quota, its SIMs, its own messages only.
 */
export type Caller =
  | { readonly kind: 'gateway' }
  | { readonly kind: 'person'; readonly id: string }
  | { readonly kind: 'app'; readonly appId: string };

export const gatewayCaller: Caller = { kind: 'gateway' };

/** The app a caller acts for, if it is one. */
export function appOfCaller(caller: Caller): string | undefined {
  return caller.kind === 'app' ? caller.appId : undefined;
}

/**
 * Who may receive what a caller submitted (an SMPP receipt): the same person or the same app,
 * however they logged in (password or token) and whatever SMPP system_id they gave.
 */
export function callerKey(caller: Caller): string {
  switch (caller.kind) {
    case 'gateway':
      return 'gateway';
    case 'person':
      return `person:${caller.id}`;
    case 'app':
      return `app:${caller.appId}`;
  }
}
