import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { createLogger } from '../../server/logging/logger.js';
import { PatternMatcher } from '../../server/services/patterns/patternMatcher.js';

/** Backtracks through 2^n paths on a text of n characters without an X: never ends here. */
const runaway = { source: '(.|.)*X', flags: '' };
const longText = 'hello there, what are your opening hours today and tomorrow?';
const budgetMs = 300;

const matchers: PatternMatcher[] = [];
function matcher(): PatternMatcher {
  const made = new PatternMatcher({
    name: 'test pattern',
    logger: createLogger({ level: 'ERROR', sinks: [] }),
  });
  matchers.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(matchers.splice(0).map((made) => made.close()));
});

describe('the pattern matcher', () => {
  it('answers each pattern with its groups, no match, or why it is invalid', async () => {
    const outcomes = await matcher().match(
      [
        { source: 'balance is ([\\d.]+)', flags: '' },
        { source: 'OPEN', flags: 'iu' },
        { source: 'closed', flags: 'iu' },
        { source: '(', flags: '' },
        { source: '(?<amount>\\d+),(\\d+)?', flags: '' },
      ],
      'Your balance is 12.50; open today 7,',
      budgetMs,
    );
    expect(outcomes).toEqual([
      { kind: 'matched', groups: ['balance is 12.50', '12.50'] },
      { kind: 'matched', groups: ['open'] },
      { kind: 'unmatched' },
      { kind: 'invalid', message: expect.stringContaining('Invalid regular expression') },
      { kind: 'matched', groups: ['7,', '7', undefined] },
    ]);
  });

  it('blames the pattern that ran out of the budget, keeps what ran before it, and skips the rest', async () => {
    const patterns = matcher();
    const started = performance.now();
    const outcomes = await patterns.match(
      [{ source: 'hours', flags: 'iu' }, runaway, { source: 'today', flags: 'iu' }],
      longText,
      budgetMs,
    );
    // The thread's start is not counted; the upper bound is only for a loaded machine.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(outcomes).toEqual([
      { kind: 'matched', groups: ['hours'] },
      { kind: 'timed-out' },
      { kind: 'not-run' },
    ]);
    // The thread stuck in the pattern was ended; the next batch runs on a fresh one.
    expect(await patterns.match([{ source: 'today', flags: '' }], longText, budgetMs)).toEqual([
      { kind: 'matched', groups: ['today'] },
    ]);
  });

  it('gives a batch its own budget, however long the one before it waited', async () => {
    const patterns = matcher();
    const [first, second] = await Promise.all([
      patterns.match([runaway], longText, budgetMs),
      patterns.match([runaway, { source: 'x', flags: '' }], longText, budgetMs),
    ]);
    expect(first).toEqual([{ kind: 'timed-out' }]);
    expect(second).toEqual([{ kind: 'timed-out' }, { kind: 'not-run' }]);
  });

  it('fails what it was asked with PatternMatcherFailed once closed', async () => {
    const patterns = matcher();
    const pending = expect(patterns.match([runaway], longText, 60_000)).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.PatternMatcherFailed),
    );
    await patterns.close();
    await pending;
    await expect(patterns.match([runaway], longText, budgetMs)).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.PatternMatcherFailed),
    );
  });
});
