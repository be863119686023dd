/** Messages between the main process and the core's utility process. */
export type CoreToMain =
  | { type: 'ready'; baseUrl: string; sessionToken: string; simulated: boolean }
  | { type: 'session-token'; sessionToken: string }
  | { type: 'incoming'; sender: string; preview: string }
  | { type: 'fatal'; message: string };

export type MainToCore =
  | { type: 'set-sending-paused'; paused: boolean }
  | { type: 'renew-session-token' }
  | { type: 'shutdown' };

export function isCoreToMain(value: unknown): value is CoreToMain {
  if (typeof value !== 'object' || value === null || !('type' in value)) return false;
  return ['ready', 'session-token', 'incoming', 'fatal'].includes(String((value as { type: unknown }).type));
}

export function isMainToCore(value: unknown): value is MainToCore {
  if (typeof value !== 'object' || value === null || !('type' in value)) return false;
  return ['set-sending-paused', 'renew-session-token', 'shutdown'].includes(
    String((value as { type: unknown }).type),
  );
}
