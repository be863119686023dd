import type { CoreHealth } from './coreHealth.js';
import type { StartFailure } from './startFailure.js';

/** Messages between the main process and the core's utility process. */
export type CoreToMain =
  | {
      type: 'ready';
      baseUrl: string;
      simulated: boolean;
      username: string;
      /** Only on the run that generated it: shown once in the window (firstRunLogin.ts). */
      generatedPassword?: string;
    }
  /** No `sessionToken`: people other than the owner exist, and each signs in as themselves. */
  | { type: 'session-token'; requestId: number; sessionToken?: string }
  | { type: 'session-token-failed'; requestId: number; message: string }
  | { type: 'incoming'; sender: string; preview: string }
  /** Sending was paused or resumed, from any side: the tray shows it. */
  | { type: 'sending-paused'; paused: boolean }
  /** The queue and the failing checks, whenever they change (see coreHealth.ts). */
  | { type: 'health'; health: CoreHealth }
  /** The database is being migrated (a backup was taken first): the start waits for it. */
  | { type: 'schema-upgrade'; from: number; to: number; backup: string }
  /** Posted just before the core exits because it could not start. */
  | { type: 'start-failed'; failure: StartFailure };

export type MainToCore =
  | { type: 'set-sending-paused'; paused: boolean }
  | { type: 'renew-session-token'; requestId: number }
  /** The PC woke from sleep: every modem checks at once that it still answers. */
  | { type: 'recheck-modems' }
  | { type: 'shutdown' };

export function isCoreToMain(value: unknown): value is CoreToMain {
  if (typeof value !== 'object' || value === null || !('type' in value)) return false;
  return [
    'ready',
    'session-token',
    'session-token-failed',
    'incoming',
    'sending-paused',
    'schema-upgrade',
    'health',
    'start-failed',
  ].includes(String((value as { type: unknown }).type));
}

export function isMainToCore(value: unknown): value is MainToCore {
  if (typeof value !== 'object' || value === null || !('type' in value)) return false;
  return ['set-sending-paused', 'renew-session-token', 'recheck-modems', 'shutdown'].includes(
    String((value as { type: unknown }).type),
  );
}
