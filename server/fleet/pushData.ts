import type { MessageCancelledData } from './mobileApi.js';

/**
 * The id a MessageCancelled names. A push's data is its `map[string]string` as JSON (server
 * modules/sse/service.go Send).
 */
export function cancelledMessageIdOf(data: string): string | undefined {
  const parsed = objectOf(data) as Partial<Record<keyof MessageCancelledData, unknown>> | undefined;
  return typeof parsed?.messageId === 'string' && parsed.messageId !== '' ? parsed.messageId : undefined;
}

function objectOf(data: string): object | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}
