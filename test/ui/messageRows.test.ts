import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../renderer/src/api/types.js';
import { toCsv } from '../../renderer/src/format/csv.js';
import {
  acceptedAt,
  matchesMessageFilter,
  mergeLiveMessage,
  messageCsvColumns,
  parseRecipients,
  stateTimeline,
} from '../../renderer/src/messages/messageRows.js';

function message(overrides: Partial<MessageRecord> = {}): MessageRecord {
  return {
    id: 'm1',
    deviceId: 'modem-a',
    state: 'Pending',
    isHashed: false,
    isEncrypted: false,
    recipients: [{ phoneNumber: '+15551230001', state: 'Pending' }],
    states: { Pending: '2026-11-22T10:00:00.000+00:00' },
    textMessage: { text: 'Your order is ready' },
    ...overrides,
  };
}

describe('message rows', () => {
  it('orders the state timeline by the time each state was reached', () => {
    const sent = message({
      states: {
        Sent: '2026-11-22T10:00:03.000+00:00',
        Pending: '2026-11-22T10:00:00.000+00:00',
        Processed: '2026-11-22T10:00:01.000+00:00',
      },
    });
    expect(stateTimeline(sent).map((step) => step.state)).toEqual(['Pending', 'Processed', 'Sent']);
    expect(acceptedAt(sent)).toBe('2026-11-22T10:00:00.000+00:00');
  });

  it('matches live messages against state, modem, time range and text or number', () => {
    const pending = message();
    expect(matchesMessageFilter(pending, {})).toBe(true);
    expect(matchesMessageFilter(pending, { state: 'Sent' })).toBe(false);
    expect(matchesMessageFilter(pending, { deviceId: 'modem-b' })).toBe(false);
    expect(matchesMessageFilter(pending, { from: '2026-11-22T11:00:00Z' })).toBe(false);
    expect(matchesMessageFilter(pending, { to: '2026-11-22T09:00:00Z' })).toBe(false);
    expect(matchesMessageFilter(pending, { search: 'ORDER' })).toBe(true);
    expect(matchesMessageFilter(pending, { search: '1230001' })).toBe(true);
    expect(matchesMessageFilter(pending, { search: 'invoice' })).toBe(false);
  });

  it('updates a listed message in place when the stream reports a new state', () => {
    const rows = [message({ id: 'm2' }), message()];
    const merged = mergeLiveMessage(rows, message({ state: 'Sent' }), {}, true);
    expect(merged.added).toBe(false);
    expect(merged.rows.map((row) => [row.id, row.state])).toEqual([
      ['m2', 'Pending'],
      ['m1', 'Sent'],
    ]);
  });

  it('keeps the newer state when an older version of the message arrives late', () => {
    const at = (seconds: number) => `2026-11-22T10:00:0${seconds}.000+00:00`;
    const sent = message({ state: 'Sent', states: { Pending: at(0), Processed: at(1), Sent: at(1) } });
    // The POST's answer (Pending) after the live Processed and Sent events.
    expect(mergeLiveMessage([sent], message(), {}, true).rows[0]?.state).toBe('Sent');
    const processed = message({ state: 'Processed', states: { Pending: at(0), Processed: at(1) } });
    expect(mergeLiveMessage([sent], processed, {}, true).rows[0]?.state).toBe('Sent');
    // Re-queued after the modem refused it: Pending again, with the same states.
    const requeued = message({ state: 'Pending', states: { Pending: at(0), Processed: at(1) } });
    expect(mergeLiveMessage([processed], requeued, {}, true).rows[0]?.state).toBe('Pending');
  });

  it('puts a new matching message on top of the first page only', () => {
    const fresh = message({ id: 'new' });
    expect(mergeLiveMessage([message()], fresh, {}, true).rows.map((row) => row.id)).toEqual(['new', 'm1']);
    expect(mergeLiveMessage([message()], fresh, {}, false).rows.map((row) => row.id)).toEqual(['m1']);
    expect(mergeLiveMessage([message()], fresh, { state: 'Failed' }, true).added).toBe(false);
  });

  it('reads recipients separated by commas, semicolons or new lines, without duplicates', () => {
    expect(parseRecipients('+1 555 123-0001, +15551230002;\n+15551230002\n\n')).toEqual([
      '+15551230001',
      '+15551230002',
    ]);
  });

  it('exports each recipient state and its error to CSV', () => {
    const failed = message({
      state: 'Failed',
      recipients: [{ phoneNumber: '+15551230001', state: 'Failed', error: '+CMS ERROR: 500' }],
    });
    const [, row] = toCsv(messageCsvColumns, [failed]).split('\r\n');
    expect(row).toContain('+15551230001=Failed (+CMS ERROR: 500)');
  });
});
