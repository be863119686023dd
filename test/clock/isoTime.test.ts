import { describe, expect, it } from 'vitest';
import { toIsoWithOffset } from '../../server/clock/isoTime.js';

/** The form as the built-in Date writes it: what the arithmetic in isoTime.ts must reproduce. */
function builtInForm(epochMs: number, offsetMinutes: number): string {
  const shifted = new Date(epochMs + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const absolute = Math.abs(offsetMinutes);
  const hours = String(Math.floor(absolute / 60)).padStart(2, '0');
  const minutes = String(absolute % 60).padStart(2, '0');
  return `${shifted}${offsetMinutes < 0 ? '-' : '+'}${hours}:${minutes}`;
}

/** Park–Miller: the same instants on every run, so a mismatch can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48_271) % 2_147_483_647;
    return state / 2_147_483_647;
  };
}

const yearTenThousand = 253_402_300_800_000;

describe('toIsoWithOffset', () => {
  it('writes an instant with milliseconds and the offset', () => {
    expect(toIsoWithOffset(Date.UTC(2026, 10, 22, 4, 3, 1, 123), 60)).toBe('2026-11-22T05:03:01.123+01:00');
    expect(toIsoWithOffset(Date.UTC(2026, 0, 1, 2, 0, 0, 5), -330)).toBe('2025-12-31T20:30:00.005-05:30');
  });

  it('agrees with the built-in Date on leap days, month ends, the epoch and the last instant of year 9999', () => {
    const instants = [
      0,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(2100, 1, 28, 12),
      Date.UTC(2024, 11, 31, 23, 59, 59, 999),
      Date.UTC(1999, 11, 31, 23),
      yearTenThousand - 1,
    ];
    for (const instant of instants) {
      for (const offset of [0, 60, -60, 330, -570, 840, -720]) {
        expect(toIsoWithOffset(instant, offset), `${instant} at ${offset}`).toBe(
          builtInForm(instant, offset),
        );
      }
    }
  });

  it('agrees with the built-in Date at 200,000 random instants and offsets', () => {
    const random = seededRandom(20_261_126);
    for (let sample = 0; sample < 200_000; sample++) {
      const instant = Math.floor(random() * yearTenThousand);
      const offset = Math.floor(random() * 1_561) - 720;
      const written = toIsoWithOffset(instant, offset);
      if (written !== builtInForm(instant, offset)) {
        expect(written, `${instant} at ${offset}`).toBe(builtInForm(instant, offset));
      }
    }
  });

  it('writes instants before 1970 and after 9999 as the built-in Date does', () => {
    expect(toIsoWithOffset(-1, 0)).toBe('1969-12-31T23:59:59.999+00:00');
    for (const instant of [-86_400_001, yearTenThousand, yearTenThousand + 86_400_000]) {
      expect(toIsoWithOffset(instant, 0)).toBe(builtInForm(instant, 0));
    }
  });
});
