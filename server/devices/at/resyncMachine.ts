/**
 * Resynchronising an AT line by sequence, not by silence, as a pure state machine (the session
 * does the I/O and feeds it every line that is not an unsolicited code).
 *
 * Why: AT has no sequence numbers. After a command timed out its final result may still come,
 * at any time (a flooded modem, or a loaded host that reads the line late), and the next command
 * would take it as its own: a send refused with another command's `+CMS ERROR` (RELIABILITY.md
 * finding 3). Waiting for a quiet line only narrows that window. A modem answers command lines
 * one after another, in order (V.250 §5.2.1), so once the answer to a command line nobody else
 * ever wrote has been seen, everything owed before it has been seen too.
 *
 * The unique answer: no harmless standard command answers with an argument we choose (an
 * identity such as AT+CGMI is the same every time), but every V.250 modem can echo (§6.2.4 `E`,
 * mandatory, factory default E1), and echo sends back the characters of the command line as
 * received. Gammu runs with echo on (each reply in test/fixtures/transcripts/gammu-echo-on-dumps.txt
 * starts with its command) and RIOT's AT driver (RIOT-OS/RIOT drivers/include/at.h) checks every
 * echo against what it sent. So the probe is an S-parameter read, `ATS<nonce>?` (V.250 §5.3.2; a
 * read changes nothing), with a number never used before on this line: its echo is unique.
 * Whether the modem has such a register does not matter (most answer ERROR, the simulator too);
 * only the echo and the final result right after it do. The nonce starts at a random value per
 * session, so a process that took over the line does not take a dead process's probe for its own.
 *
 *   enablingEcho  --final (any: it may be a stale one)--> awaitingProbeEcho   writes ATE1, then ATS<n>?
 *   awaitingProbeEcho --the line "ATS<n>?"-------------> awaitingProbeResult (all else discarded)
 *   awaitingProbeResult --final-------------------------> disablingEcho       writes ATE0
 *   disablingEcho --final-------------------------------> inStep
 *   any waiting state --timeout--> enablingEcho with the next nonce, or gaveUp after the last attempt
 *
 * Waiting for a final before the probe keeps to V.250's one-line-at-a-time; when that final was a
 * stale one, the probe only queues behind ATE1 in the modem. A modem that never echoes (none we
 * know of) or has stopped answering ends in `gaveUp` once its attempts are spent (`lineHold.ts`
 * says how many), and the session falls back to a quiet wait.
 */
import { classifyFinalResult } from './finalResults.js';

export type ResyncState =
  | {
      name: 'enablingEcho' | 'awaitingProbeEcho' | 'awaitingProbeResult' | 'disablingEcho';
      nonce: number;
      attemptsLeft: number;
    }
  | { name: 'inStep'; nonce: number }
  | { name: 'gaveUp'; nonce: number };

export type ResyncEvent =
  | {
      type: 'line';
      /** A complete line that is not an unsolicited result code. */
      line: string;
    }
  | { type: 'timeout' };

export type ResyncAction =
  /** Write this command line (CR added by the session) and (re)arm the resync timer. */
  | { type: 'write'; command: string }
  /** The line was not the answer to anything of ours: drop it (the session logs it). */
  | { type: 'discard'; line: string };

export interface ResyncStep {
  state: ResyncState;
  actions: ResyncAction[];
}

/** The probe whose echo only this attempt can produce. */
export function probeCommand(nonce: number): string {
  return `ATS${nonce}?`;
}

export function startResync(nonce: number, attempts: number): ResyncStep {
  return {
    state: { name: 'enablingEcho', nonce, attemptsLeft: attempts },
    actions: [{ type: 'write', command: 'ATE1' }],
  };
}

export function isSettled(state: ResyncState): boolean {
  return state.name === 'inStep' || state.name === 'gaveUp';
}

export function resyncTransition(state: ResyncState, event: ResyncEvent): ResyncStep {
  const stay: ResyncStep = { state, actions: [] };
  if (state.name === 'inStep' || state.name === 'gaveUp') return stay;
  if (event.type === 'timeout') {
    return state.attemptsLeft > 1
      ? startResync(state.nonce + 1, state.attemptsLeft - 1)
      : { state: { name: 'gaveUp', nonce: state.nonce }, actions: [] };
  }
  const { line } = event;
  const isFinal = classifyFinalResult(line) !== undefined;
  switch (state.name) {
    case 'enablingEcho':
      if (!isFinal) return { state, actions: [{ type: 'discard', line }] };
      return {
        state: { ...state, name: 'awaitingProbeEcho' },
        actions: [
          { type: 'discard', line },
          { type: 'write', command: probeCommand(state.nonce) },
        ],
      };
    case 'awaitingProbeEcho':
      if (line.trim().toUpperCase() !== probeCommand(state.nonce)) {
        return { state, actions: [{ type: 'discard', line }] };
      }
      return { state: { ...state, name: 'awaitingProbeResult' }, actions: [] };
    case 'awaitingProbeResult':
      // The probe's own answer: a register value, then OK; or ERROR. The line is in step now.
      if (!isFinal) return stay;
      return { state: { ...state, name: 'disablingEcho' }, actions: [{ type: 'write', command: 'ATE0' }] };
    case 'disablingEcho':
      // The echo of ATE0, then its result (an ERROR would leave echo on, which the session copes with).
      if (!isFinal) return stay;
      return { state: { name: 'inStep', nonce: state.nonce }, actions: [] };
  }
}
