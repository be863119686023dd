import { describe, expect, it } from 'vitest';
import { toIsoWithOffset } from '../../server/clock/isoTime.js';
import { storedMessageView, toMessageView } from '../../server/domain/messageView.js';
import { stateTimes, withStateTimes } from '../../server/domain/stateTimes.js';
import { message } from '../store/storeTestKit.js';

const at = Date.UTC(2026, 4, 2, 10, 30);

describe('withStateTimes', () => {
  it("puts the state times where toMessageView does, so a listed view reads as GET by id's", () => {
    const record = message({
      id: 'm1',
      state: 'Failed',
      states: { Pending: at, Processed: at + 50, Failed: at + 900 },
      recipients: [{ phoneNumber: '+15550000001', state: 'Failed', error: 'said ,"priority":1 to us' }],
    });
    const listed = withStateTimes(storedMessageView(record).view, record.states);
    const { id: _id, ...expected } = toMessageView(record, false, undefined);
    expect(listed).toBe(JSON.stringify(expected));
  });

  it('adds them at the end of a view written without a priority', () => {
    expect(withStateTimes('{"state":"Pending"}', { Pending: at })).toBe(
      `{"state":"Pending","states":{"Pending":"${toIsoWithOffset(at)}"}}`,
    );
  });

  it('shows the states in their order, whatever order the record holds them in', () => {
    expect(Object.keys(stateTimes({ Sent: at + 2, Pending: at, Processed: at + 1 }))).toEqual([
      'Pending',
      'Processed',
      'Sent',
    ]);
  });
});
