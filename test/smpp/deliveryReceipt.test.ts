import { describe, expect, it } from 'vitest';
import {
  deliveryFailed,
  type FailureReason,
  modemRefused,
  optedOut,
  ttlExpired,
} from '../../server/contract/domain/failureTexts.js';
import type { MessageState, RecipientRecord } from '../../server/contract/domain/message.js';
import { receiptOutcome } from '../../server/doors/smpp/deliveryReceipt.js';
import { MessageStateTlv } from '../../server/doors/smpp/smppStatus.js';
import { message } from '../store/storeTestKit.js';

/** A one-recipient message in `state`, its recipient failed for `reason` when given. */
function finished(state: MessageState, reason?: FailureReason) {
  const recipient: RecipientRecord = { phoneNumber: '+491701234567', state, ...reason };
  return message({ id: 'receipt', state, recipients: [recipient] });
}

// SMPP 3.4 Appendix B: stat values; §5.2.28 message_state values.
describe('the receipt a final state owes', () => {
  it.each([
    ['Delivered', undefined, 'DELIVRD', MessageStateTlv.DELIVERED, 0],
    ['Cancelled', undefined, 'DELETED', MessageStateTlv.DELETED, 0],
    ['Failed', ttlExpired, 'EXPIRED', MessageStateTlv.EXPIRED, 0],
    ['Failed', optedOut, 'REJECTD', MessageStateTlv.REJECTED, 0],
    [
      'Failed',
      modemRefused('modem refused the message (+CMS ERROR 500)', 500),
      'UNDELIV',
      MessageStateTlv.UNDELIVERABLE,
      500,
    ],
    ['Failed', deliveryFailed(0x45), 'UNDELIV', MessageStateTlv.UNDELIVERABLE, 0x45],
  ] as const)('%s (%o) → stat %s, message_state %s, err %s', (state, reason, stat, messageState, err) => {
    expect(receiptOutcome(finished(state, reason))).toEqual({ stat, messageState, err });
  });

  it('is owed nothing while the message is not final', () => {
    expect(receiptOutcome(finished('Pending'))).toBeUndefined();
    expect(receiptOutcome(finished('Sent'))).toBeUndefined();
  });
});
