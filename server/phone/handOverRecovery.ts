import type { Logger } from '../logging/logger.js';
import type { MessageLifecycle } from '../messages/messageLifecycle.js';
import type { MessageRepository } from '../store/repositories.js';
import type { AndroidPhone } from './androidPhone.js';
import { phoneMessageId } from './phoneMessages.js';

/**
 * Before the scheduler's crash recovery: a message found Processed at a phone was cut short
 * between its durable Processed mark and the phone's answer. The phone is asked, never sent to
 * again: it holds the id → the recipient is Sent (polling follows it from there); it does not →
 * nothing left, the message goes back to the queue. A phone that does not answer leaves the
 * recipient to the general rule (`recoverInterruptedSends`: "interrupted; may have been sent").
 */
export async function resolvePhoneHandOvers(deps: {
  repository: MessageRepository;
  lifecycle: MessageLifecycle;
  phones: AndroidPhone[];
  logger: Logger;
}): Promise<void> {
  for (const message of deps.repository.inState('Processed')) {
    const phone = deps.phones.find((candidate) => candidate.deviceId === message.deviceId);
    if (!phone) continue;
    let absent = false;
    let unknown = false;
    for (const [index, recipient] of message.recipients.entries()) {
      if (recipient.state !== 'Processed') continue;
      const held = await phone.lookup(phoneMessageId(message.id, index));
      deps.logger.info('hand-over to a phone cut short by a restart', {
        messageId: message.id,
        onPhone: held,
      });
      if (held === 'held') await deps.lifecycle.markRecipientSent(message.id, recipient.phoneNumber, []);
      if (held === 'absent') absent = true;
      if (held === 'unknown') unknown = true;
    }
    // Requeued are the recipients still Processed: only safe when the phone has none of them.
    if (absent && !unknown) await deps.lifecycle.requeue(message.id);
  }
}
