import { describe, expect, it } from 'vitest';
import { StorageOccupancy } from '../../server/devices/modem/storageOccupancy.js';

type Step =
  | { stored: number }
  | { emptied: number }
  | { listed: readonly number[] }
  | { memory: string; stored: number };

/** Runs the steps on a 3-slot "SM" and says after each whether `wasFull` was called. */
function run(steps: readonly Step[]): boolean[] {
  const calls: string[] = [];
  const occupancy = new StorageOccupancy({
    capacityOf: (memory) => (memory === 'SM' ? 3 : undefined),
    wasFull: (memory) => calls.push(memory),
  });
  return steps.map((step) => {
    const before = calls.length;
    if ('listed' in step) occupancy.listed('SM', step.listed);
    else if ('emptied' in step) occupancy.emptied('SM', step.emptied);
    else occupancy.stored('memory' in step ? step.memory : 'sm', step.stored);
    return calls.length > before;
  });
}

describe('storage occupancy', () => {
  it.each([
    ['the slot that fills the memory', [{ stored: 0 }, { stored: 1 }, { stored: 2 }], [false, false, true]],
    ['the same slot indicated twice', [{ stored: 0 }, { stored: 0 }, { stored: 1 }], [false, false, false]],
    [
      'the first deletion after it was full',
      [{ stored: 0 }, { stored: 1 }, { stored: 2 }, { emptied: 2 }, { emptied: 1 }],
      [false, false, true, true, false],
    ],
    ['each listing that finds it full', [{ listed: [0, 1, 2] }, { listed: [0, 1, 2] }], [true, true]],
    [
      'drafts left in place by a listing, then one more message',
      [{ listed: [4, 7] }, { stored: 0 }],
      [false, true],
    ],
    ['a listing that shows room', [{ stored: 0 }, { stored: 1 }, { listed: [1] }], [false, false, false]],
    [
      'a memory of unknown size',
      [
        { memory: 'SR', stored: 0 },
        { memory: 'SR', stored: 1 },
      ],
      [false, false],
    ],
  ] as const)('calls wasFull on %s', (_case, steps, expected) => {
    expect(run(steps)).toEqual(expected);
  });
});
