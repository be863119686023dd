import { describe, expect, it } from 'vitest';
import { compareMessages } from '../../server/contract/domain/messageOrder.js';
import { describeHold } from '../../server/services/scheduler/holdReason.js';

const queue = [
  { id: 'old-low', priority: -1, sequence: 1 },
  { id: 'old', priority: 0, sequence: 2 },
  { id: 'new', priority: 0, sequence: 3 },
  { id: 'high', priority: 50, sequence: 4 },
  { id: 'expedited', priority: 100, sequence: 5 },
];

describe('compareMessages', () => {
  it('orders by priority, then newest first under LIFO', () => {
    const sorted = [...queue].sort((left, right) => compareMessages('LIFO', left, right));
    expect(sorted.map((message) => message.id)).toEqual(['expedited', 'high', 'new', 'old', 'old-low']);
  });

  it('orders by priority, then oldest first under FIFO', () => {
    const sorted = [...queue].sort((left, right) => compareMessages('FIFO', left, right));
    expect(sorted.map((message) => message.id)).toEqual(['expedited', 'high', 'old', 'new', 'old-low']);
  });

  // A campaign (batchSequence 10) queued between two single messages, one of them written
  // between two of its chunks.
  const withCampaign = [
    { id: 'before', priority: 0, sequence: 9 },
    { id: 'row-1', priority: 0, sequence: 10, batchSequence: 10 },
    { id: 'row-2', priority: 0, sequence: 11, batchSequence: 10 },
    { id: 'between-chunks', priority: 0, sequence: 12 },
    { id: 'row-3', priority: 0, sequence: 13, batchSequence: 10 },
  ];

  it.each([
    ['LIFO' as const, ['between-chunks', 'row-1', 'row-2', 'row-3', 'before']],
    ['FIFO' as const, ['before', 'row-1', 'row-2', 'row-3', 'between-chunks']],
  ])('sends a campaign in its list order, placed as one message, under %s', (order, expected) => {
    const sorted = [...withCampaign].sort((left, right) => compareMessages(order, left, right));
    expect(sorted.map((message) => message.id)).toEqual(expected);
  });
});

describe('describeHold', () => {
  it.each([
    [{ reason: 'rate-limit' as const, nextAttemptAt: 42_000 }, 'rate limit: next send in 42 s'],
    [{ reason: 'send-interval' as const, nextAttemptAt: 1_500 }, 'send interval: next send in 2 s'],
    [{ reason: 'scheduled' as const, nextAttemptAt: 30 * 60_000 }, 'scheduled: next send in 30 min'],
    [{ reason: 'scheduled' as const, nextAttemptAt: 5 * 3_600_000 }, 'scheduled: next send in 5 h'],
    [{ reason: 'no-modem' as const }, 'no modem: waiting for a modem able to send'],
    [{ reason: 'no-modem' as const, deviceId: 'm7' }, 'no modem: waiting for modem m7 to come online'],
  ])('explains %o as "%s"', (hold, text) => {
    expect(describeHold(hold, 0)).toBe(text);
  });
});
