/**
 * What a `PatternMatcher` (patternMatcher.ts) and its thread (patternThread.ts) say to each
 * other. A module of its own so that the thread loads nothing of the main side.
 */

/** A regular expression as a user wrote it, with the flags its feature runs it with. */
export interface UserPattern {
  source: string;
  flags: string;
}

/** What the thread (patternThread.ts) is sent, and what it answers. */
export interface PatternRequest {
  id: number;
  patterns: readonly UserPattern[];
  text: string;
  /** `Date.now()` when it was sent: the thread notes when each pattern starts, after this. */
  sentAt: number;
}
export type ThreadResult = { groups: (string | undefined)[] | null } | { invalid: string };
export type PatternReply =
  | { kind: 'ready' }
  | { kind: 'result'; id: number; index: number; result: ThreadResult };

/** Shared with the thread: which pattern it runs, and how long after `sentAt` it began. */
export interface PatternThreadData {
  progress: SharedArrayBuffer;
}
/** Slots of `progress`, an Int32Array over the shared buffer. */
export const progressSlots = { running: 0, startedAfterMs: 1 } as const;
