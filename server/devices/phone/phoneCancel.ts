/**
 * Our cancel of a message a phone holds: the app's `DELETE /messages/{id}` for each recipient
 * still Processed here. The app cancels only what is still Pending on the phone
 * (MessagesService.kt cancelMessage); what it has taken up is refused with InvalidState.
 */
import type { MessageRecord } from '../../contract/domain/message.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { PhoneClient } from './phoneClient.js';
import type { PhoneHandOvers } from './phoneHandOvers.js';
import type { PhoneLedger } from './phoneLedger.js';
import { phoneMessageId } from './phoneMessages.js';

export interface PhoneCancelDeps {
  /** The phone's address, for the error texts. */
  port: string;
  client: PhoneClient;
  ledger: PhoneLedger;
  handOvers: PhoneHandOvers;
  logger: Logger;
}

/** Resolves once every recipient the phone still had pending is Cancelled; throws when none could be. */
export async function cancelOnPhone(message: MessageRecord, deps: PhoneCancelDeps): Promise<void> {
  let cancelled = 0;
  let refusal: string | undefined;
  for (const [index, recipient] of message.recipients.entries()) {
    if (recipient.state !== 'Processed') continue;
    const id = phoneMessageId(message.id, index);
    let answer: 'cancelled' | 'too-late' | 'unknown';
    try {
      answer = await deps.client.cancel(id);
    } catch (error) {
      throw new GatewayError(
        ErrorCode.ModemUnavailable,
        `the phone at ${deps.port} does not answer; it still holds message ${message.id}, try again when it is back`,
        { cause: error },
      );
    }
    // 404 for a hand-over that never arrived: nothing to stop, nothing was sent.
    if (answer === 'cancelled' || (answer === 'unknown' && deps.handOvers.isUnsure(id))) {
      await deps.ledger.settle(message.id, recipient.phoneNumber, { state: 'Cancelled' });
      deps.handOvers.forget(id);
      cancelled++;
      continue;
    }
    refusal =
      answer === 'too-late'
        ? `message ${message.id} is being sent by the phone and can no longer be cancelled`
        : `message ${message.id} is being handed to the phone; try again in a moment`;
  }
  deps.logger.info('cancel asked of the phone', { messageId: message.id, cancelled });
  if (cancelled === 0 && refusal) throw new GatewayError(ErrorCode.InvalidState, refusal);
}
