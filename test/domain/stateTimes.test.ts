import { describe, expect, it } from 'vitest';
import { stateTimes } from '../../server/contract/domain/stateTimes.js';

const at = Date.UTC(2026, 4, 2, 10, 30);

describe('stateTimes', () => {
  it('shows the states in their order, whatever order the record holds them in', () => {
    expect(Object.keys(stateTimes({ Sent: at + 2, Pending: at, Processed: at + 1 }))).toEqual([
      'Pending',
      'Processed',
      'Sent',
    ]);
  });
});
