import type { MessageRecord } from '../../server/contract/domain/message.js';
import { message } from '../store/storeTestKit.js';

/** A queued message as the route guard and the holds see it: to a German landline unless told. */
export function routedMessage(overrides: Partial<MessageRecord> = {}): MessageRecord {
  return message({
    id: 'm',
    recipients: [{ phoneNumber: '+4930123456', state: 'Pending', updatedAt: 0 }],
    ...overrides,
  });
}

/** A queued message to `phoneNumber`. */
export function messageTo(phoneNumber: string): MessageRecord {
  return routedMessage({ recipients: [{ phoneNumber, state: 'Pending', updatedAt: 0 }] });
}
