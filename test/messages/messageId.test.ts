import { describe, expect, it } from 'vitest';
import { createMessageIdGenerator, generateMessageId } from '../../server/services/messages/messageId.js';

const urlSafe = /^[-0-9A-Za-z_]{21}$/;

describe('message ids', () => {
  it('are 21 URL-safe characters, like upstream nanoid ids', () => {
    const next = createMessageIdGenerator();
    for (let index = 0; index < 1_000; index++) expect(next()).toMatch(urlSafe);
    expect(generateMessageId()).toMatch(urlSafe);
  });

  it('sort by the time they were made, as text, across years and within a millisecond', () => {
    let now = Date.UTC(2020, 0, 1);
    const next = createMessageIdGenerator(() => now);
    const made: string[] = [];
    for (const step of [0, 0, 1, 63, 64, 4_095, 86_400_000, 365 * 86_400_000, 40 * 365 * 86_400_000]) {
      now += step;
      made.push(next());
    }
    const later = made.slice(1);
    for (const [index, id] of later.entries()) {
      const before = made[index] ?? '';
      // Same millisecond: same time prefix, and only the random part may differ.
      if (id.slice(0, 7) === before.slice(0, 7)) continue;
      expect(before < id).toBe(true);
    }
    expect(new Set(made.map((id) => id.slice(0, 7))).size).toBe(made.length - 1);
  });

  it('do not start with a dash, which command-line tools would read as an option', () => {
    const next = createMessageIdGenerator(() => Date.UTC(2026, 10, 26));
    expect(next()).toMatch(/^[0-9A-Za-z]/);
    expect(createMessageIdGenerator(() => Date.UTC(2100, 0, 1))()).toMatch(/^[0-9A-Za-z]/);
  });

  it('keep 84 random bits after the time: 100,000 ids made in one millisecond are all different', () => {
    const next = createMessageIdGenerator(() => 1_700_000_000_000);
    const ids = new Set(Array.from({ length: 100_000 }, next));
    expect(ids.size).toBe(100_000);
  });
});
