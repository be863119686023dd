import { describe, expect, it } from 'vitest';
import { absoluteSmppTime, parseSmppTime, receiptDate } from '../../server/doors/smpp/smppTime.js';

// SMPP 3.4 §7.1.1: "YYMMDDhhmmsstnnp".
const now = Date.UTC(2026, 10, 27, 12, 0, 0);

describe('SMPP times', () => {
  it.each([
    ['', undefined],
    // §7.1.1.1: local time nn quarter hours ahead of UTC ('+') or behind ('-').
    ['261127150000000+', Date.UTC(2026, 10, 27, 15, 0, 0)],
    ['261127170000008+', Date.UTC(2026, 10, 27, 15, 0, 0)],
    ['261127100000008-', Date.UTC(2026, 10, 27, 12, 0, 0)],
    ['261127150000500+', Date.UTC(2026, 10, 27, 15, 0, 0, 500)],
    // §7.1.1.2: relative to now; t and nn are ignored.
    ['000000010000000R', now + 3_600_000],
    ['000001000000000R', now + 86_400_000],
    ['000000000130000R', now + 90_000],
    ['010000000000000R', Date.UTC(2027, 10, 27, 12, 0, 0)],
  ])('reads "%s"', (value, at) => {
    expect(parseSmppTime(value, now)).toEqual({ ok: true, at });
  });

  it.each(['2611271500', '261327150000000+', '261127150000049+', '26112715000000+', '261127150000000X'])(
    'refuses "%s"',
    (value) => {
      expect(parseSmppTime(value, now).ok).toBe(false);
    },
  );

  it('writes receipt dates as YYMMDDhhmm and query_sm dates as absolute UTC', () => {
    expect(receiptDate(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('2601020304');
    expect(absoluteSmppTime(Date.UTC(2026, 0, 2, 3, 4, 5, 600))).toBe('260102030405600+');
  });
});
