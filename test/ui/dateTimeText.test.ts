import { describe, expect, it } from 'vitest';
import { localInputOf } from '../../renderer/src/format/timeFormat.js';

describe('a date typed into a filter', () => {
  it.each([
    ['2026-11-22 14:05', '2026-11-22T14:05'],
    ['2026-11-22T14:05', '2026-11-22T14:05'],
    [' 2026-11-22 ', '2026-11-22T00:00'],
    ['', ''],
  ])('reads %j as %j', (typed, local) => {
    expect(localInputOf(typed)).toBe(local);
  });

  it.each(['2026-11', '22.11.2026', '2026-11-22 14', '2026-13-01', 'yesterday'])(
    'is not a time yet: %j',
    (typed) => {
      expect(localInputOf(typed)).toBeUndefined();
    },
  );
});
