import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../renderer/src/api/types.js';
import { readTypedNumbers } from '../../renderer/src/desk/typedNumbers.js';
import { toCsv } from '../../renderer/src/format/csv.js';
import { applyLiveItem, livePageOf, showArrivals } from '../../renderer/src/live/livePage.js';
import {
  matchesMessageFilter,
  messageCsvColumns,
  messageLiveRules,
  messageText,
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
    // Accepted when it first became Pending, as the gateway answers.
    createdAt: overrides.states?.Pending ?? '2026-11-22T10:00:00.000+00:00',
    textMessage: { text: 'Your order is ready' },
    ...overrides,
  };
}

describe('message rows', () => {
  it('shows an MMS by its subject, text and attachments, and finds it by them', () => {
    const mms = message({
      textMessage: undefined,
      mmsMessage: {
        subject: 'Your order',
        text: 'Here is the receipt',
        attachments: [{ contentType: 'image/jpeg', name: 'receipt.jpg', size: 900_000 }],
      },
    });
    expect(messageText(mms)).toBe('[MMS: Your order] Here is the receipt (receipt.jpg, image/jpeg, 879 KB)');
    expect(matchesMessageFilter(mms, { search: 'receipt.jpg' })).toBe(true);
  });

  it('orders the state timeline by the time each state was reached', () => {
    const sent = message({
      states: {
        Sent: '2026-11-22T10:00:03.000+00:00',
        Pending: '2026-11-22T10:00:00.000+00:00',
        Processed: '2026-11-22T10:00:01.000+00:00',
      },
    });
    expect(stateTimeline(sent).map((step) => step.state)).toEqual(['Pending', 'Processed', 'Sent']);
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

  it('matches a live message by its text without regard to accents, as the server searches', () => {
    const accented = message({ textMessage: { text: 'Grüße an Frau Müller' } });
    expect(matchesMessageFilter(accented, { search: 'MULLER' })).toBe(true);
    expect(matchesMessageFilter(accented, { search: 'grusse' })).toBe(true);
    expect(matchesMessageFilter(message(), { search: 'órdér' })).toBe(true);
  });

  it('matches a live message with a failed recipient under the Failed filter, also when it stays Sent', () => {
    const partly = message({
      state: 'Sent',
      recipients: [
        { phoneNumber: '+15551230001', state: 'Failed', error: 'opted out' },
        { phoneNumber: '+15551230002', state: 'Sent' },
      ],
    });
    expect(matchesMessageFilter(partly, { anyRecipientFailed: true })).toBe(true);
    expect(matchesMessageFilter(message({ state: 'Sent' }), { anyRecipientFailed: true })).toBe(false);
  });

  /** The Messages screen's live merge: `applyLiveItem` with the Messages rules. */
  function merge(rows: MessageRecord[], update: MessageRecord, filter = {}, onFirstPage = true) {
    return applyLiveItem(
      livePageOf({ items: rows, total: rows.length }),
      update,
      messageLiveRules(filter),
      onFirstPage,
    );
  }
  const at = (seconds: number) => `2026-11-22T10:00:${String(seconds).padStart(2, '0')}.000+00:00`;

  it('updates a listed message in place when the stream reports a new state', () => {
    const rows = [message({ id: 'm2', states: { Pending: at(5) } }), message()];
    const merged = merge(rows, message({ state: 'Sent' }));
    expect(merged.total).toBe(2);
    expect(merged.arrivals).toEqual([]);
    expect(merged.items.map((row) => [row.id, row.state])).toEqual([
      ['m2', 'Pending'],
      ['m1', 'Sent'],
    ]);
  });

  it('keeps the newer state when an older version of the message arrives late', () => {
    const sent = message({ state: 'Sent', states: { Pending: at(0), Processed: at(1), Sent: at(1) } });
    // The POST's answer (Pending) after the live Processed and Sent events.
    expect(merge([sent], message()).items[0]?.state).toBe('Sent');
    const processed = message({ state: 'Processed', states: { Pending: at(0), Processed: at(1) } });
    expect(merge([sent], processed).items[0]?.state).toBe('Sent');
    // Re-queued after the modem refused it: Pending again, with the same states.
    const requeued = message({ state: 'Pending', states: { Pending: at(0), Processed: at(1) } });
    expect(merge([processed], requeued).items[0]?.state).toBe('Pending');
  });

  it('holds a new matching message back as an arrival of the first page, counted once', () => {
    const fresh = message({ id: 'new', states: { Pending: at(9) } });
    const merged = merge([message()], fresh);
    expect(merged.items.map((row) => row.id)).toEqual(['m1']);
    expect(merged.arrivals.map((row) => row.id)).toEqual(['new']);
    expect(merged.total).toBe(2);
    // Its later states update the arrival; they are not new messages.
    const sent = message({ id: 'new', state: 'Sent', states: { Pending: at(9), Sent: at(10) } });
    const again = applyLiveItem(merged, sent, messageLiveRules({}), true);
    expect(again.total).toBe(2);
    expect(again.arrivals.map((row) => row.state)).toEqual(['Sent']);
    expect(showArrivals(again, 50).items.map((row) => row.id)).toEqual(['new', 'm1']);
    expect(merge([message()], fresh, {}, false).arrivals).toEqual([]);
    expect(merge([message()], fresh, { state: 'Failed' }).arrivals).toEqual([]);
  });

  it('shows a new message at once when the page is empty: no row can move under the pointer', () => {
    const merged = merge([], message({ id: 'first' }));
    expect(merged.items.map((row) => row.id)).toEqual(['first']);
    expect(merged.arrivals).toEqual([]);
    expect(merged.total).toBe(1);
  });

  it('ignores a state change of a message that is on a later page (it is not new)', () => {
    // Page 1 shows messages accepted at 10:00:20 and 10:00:30; m-old (10:00:05) is on page 2.
    const page = [
      message({ id: 'p1', states: { Pending: at(30) } }),
      message({ id: 'p2', states: { Pending: at(20) } }),
    ];
    const scrolledOff = message({ id: 'm-old', state: 'Sent', states: { Pending: at(5), Sent: at(40) } });
    const merged = merge(page, scrolledOff);
    expect(merged.items.map((row) => row.id)).toEqual(['p1', 'p2']);
    expect(merged.arrivals).toEqual([]);
    expect(merged.total).toBe(2);
  });

  it('reads recipients as typed, separated by commas, semicolons or new lines, each once, with a sentence per bad one', () => {
    expect(readTypedNumbers('+1 555 123-0001, (555) 123-0002;\n+15551230002\n12\n', 'US')).toEqual({
      numbers: ['+15551230001', '+15551230002'],
      problems: ['12 is too short for a number in US'],
    });
  });

  it('exports each recipient state and its error to CSV', () => {
    const failed = message({
      state: 'Failed',
      recipients: [{ phoneNumber: '+15551230001', state: 'Failed', error: '+CMS ERROR: 500' }],
    });
    const [, row] = toCsv(messageCsvColumns([]), [failed]).split('\r\n');
    expect(row).toContain('+15551230001=Failed (+CMS ERROR: 500)');
  });
});
