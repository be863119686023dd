/** How big each workload is: the full benchmark, or `--quick` (seconds, for the smoke test). */
export interface BenchSizes {
  quick: boolean;
  /** Repetitions of each measurement; tables report the median. */
  runs: number;
  /** Seconds of autocannon load per HTTP measurement. */
  httpSeconds: number;
  /** Messages (and incoming messages) already in the store for the "stored" workloads. */
  stored: number;
  /** The small store start-up is compared with: it should not take much longer with `stored`. */
  baselineStored: number;
  /** Messages pushed through the modems per modem-path measurement. */
  modemMessages: number;
  /** Single idle POST → PDU samples. */
  latencySamples: number;
  /** Quiet time after start-up before measuring (SIM reads, first health round, GC). */
  settleMs: number;
  /** Quiet time before a memory reading that V8's memory reducer should have run by. */
  quietMs: number;
  /** Messages queued up front for the backlog workload, one run each. */
  backlogQueues: readonly number[];
  /** Modems (at the radio's pace) that drain each backlog. */
  backlogModems: number;
  /**
   * Serving thousands of POSTs grows V8's heap (garbage promoted faster than it is collected),
   * which V8 gives back only when its memory reducer runs, from about half a minute after the
   * load stops. From this many queued, the queue's own cost is read after `quietMs`, empty and
   * full alike.
   */
  backlogQuietFrom: number;
  /** Seconds of sending timed per backlog run (at most the whole queue). */
  backlogSeconds: number;
}

export const fullSizes: BenchSizes = {
  quick: false,
  runs: 3,
  httpSeconds: 10,
  stored: 1_000_000,
  baselineStored: 10_000,
  modemMessages: 1_000,
  latencySamples: 50,
  settleMs: 2_000,
  quietMs: 100_000,
  backlogQueues: [1_280, 20_000, 100_000],
  backlogModems: 32,
  backlogQuietFrom: 10_000,
  backlogSeconds: 40,
};

export const quickSizes: BenchSizes = {
  quick: true,
  runs: 1,
  httpSeconds: 1,
  stored: 1_000,
  baselineStored: 100,
  modemMessages: 20,
  latencySamples: 3,
  settleMs: 200,
  quietMs: 400,
  backlogQueues: [16],
  backlogModems: 4,
  backlogQuietFrom: 16,
  backlogSeconds: 2,
};
