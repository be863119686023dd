import { interrupted as interruptedSend } from '../../contract/domain/failureTexts.js';
import type { Logger } from '../../logging/logger.js';
import type { MessageRepository } from '../../store/repositories.js';
import type { MessageLifecycle } from '../messages/messageLifecycle.js';
import type { SlidingWindowLimiter } from './rateLimiter.js';

/**
 * Messages found Processed at start-up were in a modem's hands when the process died: the SMS may
 * or may not have left. Never resend silently (docs/decisions.md#no-silent-resend): each recipient
 * still Processed becomes Failed with INTERRUPTED_ERROR, unless the user opted in
 * (`resendInterrupted`), then the message goes back to Pending. Recipients already Sent keep their
 * state either way, so a message cut short between two recipients fails (or resends) only the rest.
 * A message waiting in a device's own queue (an Android phone, `MessageLifecycle.holderOf`) is not
 * interrupted: that device reports its outcome.
 */
export async function recoverInterruptedSends(deps: {
  repository: MessageRepository;
  lifecycle: MessageLifecycle;
  requeue: (messageId: string) => Promise<unknown>;
  resend: boolean;
  logger: Logger;
}): Promise<number> {
  const interrupted = deps.repository
    .inState('Processed')
    .filter((message) => deps.lifecycle.holderOf(message) === undefined);
  for (const message of interrupted) {
    if (deps.resend) {
      deps.logger.warn('re-queueing a send interrupted by a restart', { messageId: message.id });
      await deps.requeue(message.id);
      continue;
    }
    deps.logger.warn('failing a send interrupted by a restart', { messageId: message.id });
    for (const recipient of message.recipients) {
      if (recipient.state !== 'Processed') continue;
      await deps.lifecycle.markRecipientFailed(message.id, recipient.phoneNumber, interruptedSend);
    }
  }
  return interrupted.length;
}

/**
 * Refills the sliding windows from the store, so a restart cannot burst past the limit: every
 * message handed to a modem (`states.Processed`, per `deviceId`) between `after` and `before`
 * counts again.
 */
export function restoreSendWindows(
  repository: MessageRepository,
  limiter: SlidingWindowLimiter,
  after: number,
  before: number,
): number {
  const handOvers = repository.handOversBetween(after, before);
  for (const { deviceId, at } of handOvers) limiter.record(deviceId, at);
  return handOvers.length;
}
