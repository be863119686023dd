/**
 * A small seeded generator (mulberry32) so a failing fault run can be replayed: every suite
 * prints its seed, and FAULTS_SEED=<n> repeats it.
 */
export interface Random {
  readonly seed: number;
  /** In [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

export function seededRandom(seed = Number(process.env.FAULTS_SEED ?? Date.now() % 2 ** 31)): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    seed,
    next,
    int,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick from an empty list');
      // In range by construction; the item itself may be undefined on purpose (e.g. "no header").
      return items[int(0, items.length - 1)] as T;
    },
  };
}
