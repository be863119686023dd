import type { Logger } from '../logging/logger.js';
import type { MessageLifecycle } from '../messages/messageLifecycle.js';
import type { MessageState } from '../messages/model.js';
import type { MessageRepository } from '../store/repositories.js';
import { LONGEST_LIMIT_PERIOD_MS, type SlidingWindowLimiter } from './rateLimiter.js';

/** Error text of a recipient whose send a crash cut short (DESIGN §3). */
export const INTERRUPTED_ERROR = 'interrupted; may have been sent';

/**
 * Messages found Processed at start-up were in a modem's hands when the process died: the SMS may
 * or may not have left. Never resend silently (DESIGN §3): each recipient still Processed becomes
 * Failed with INTERRUPTED_ERROR, unless the user opted in (`resendInterrupted`), then the message
 * goes back to Pending. Recipients already Sent keep their state either way, so a message cut
 * short between two recipients fails (or resends) only the rest.
 */
export async function recoverInterruptedSends(deps: {
  repository: MessageRepository;
  lifecycle: MessageLifecycle;
  requeue: (messageId: string) => Promise<unknown>;
  resend: boolean;
  logger: Logger;
}): Promise<number> {
  const interrupted = deps.repository.inState('Processed');
  for (const message of interrupted) {
    if (deps.resend) {
      deps.logger.warn('re-queueing a send interrupted by a restart', { messageId: message.id });
      await deps.requeue(message.id);
      continue;
    }
    deps.logger.warn('failing a send interrupted by a restart', { messageId: message.id });
    for (const recipient of message.recipients) {
      if (recipient.state !== 'Processed') continue;
      await deps.lifecycle.markRecipientFailed(message.id, recipient.phoneNumber, INTERRUPTED_ERROR);
    }
  }
  return interrupted.length;
}

/** States a message can be in after it was handed to a modem. */
const HANDED_OVER: readonly MessageState[] = ['Processed', 'Sent', 'Delivered', 'Failed'];

/**
 * Refills the sliding windows from the store, so a restart cannot burst past the limit: every
 * message handed to a modem (`states.Processed`, per `deviceId`) within the longest period any
 * setting allows counts again.
 */
export function restoreSendWindows(
  repository: MessageRepository,
  limiter: SlidingWindowLimiter,
  now: number,
): number {
  let restored = 0;
  // A message reaches each of these states after its hand-over: one handed over within the
  // period reached its present state within it too.
  for (const state of HANDED_OVER) {
    for (const message of repository.inState(state, now - LONGEST_LIMIT_PERIOD_MS)) {
      const handedAt = message.states.Processed;
      if (message.deviceId === undefined || handedAt === undefined) continue;
      if (handedAt <= now - LONGEST_LIMIT_PERIOD_MS) continue;
      limiter.record(message.deviceId, handedAt);
      restored++;
    }
  }
  return restored;
}
