/**
 * Puts together unsolicited codes that span more than one line, before anything else sees a
 * line. Pure: the session feeds it events and does what the step says.
 *
 * - TS 27.005 §3.4.1: a `+CMT` / `+CDS` / `+CBM` header is followed by its PDU line, which belongs
 *   to the code and never to the command in flight.
 * - TS 27.007 §7.15: the network's `+CUSD:` text may hold line breaks, which modems pass on inside
 *   the quotes: the code goes on until its closing quote, for at most `maxUssdContinuationLines`.
 *   It does so only as the answer to our own `AT+CUSD=1`: a stray or broken `+CUSD` must not
 *   swallow the lines of the commands that follow it.
 */
import { classifyFinalResult } from './finalResults.js';
import { classifyUnsolicited, hasOpenQuote, type UrcMatch } from './unsolicited.js';

/** Most lines a `+CUSD:` text may continue over; a modem that never closes the quote loses no more. */
export const maxUssdContinuationLines = 16;

export interface UnsolicitedCode {
  /** '+CMTI', 'RING', '^RSSI' … */
  name: string;
  args: string;
  line: string;
  /** The following PDU line for +CMT / +CDS / +CBM. */
  pdu?: string;
}

/** A header whose next line is still to come, or a `+CUSD` text still open. */
interface PendingCode {
  match: UrcMatch;
  line: string;
  /** Lines a `+CUSD` text has taken so far. */
  continuations: number;
}

export interface UrcAssemblyState {
  pending?: PendingCode;
  /** AT+CUSD=1 went out and its `+CUSD:` answer has not come yet. */
  ussdAwaited: boolean;
}

export const initialUrcAssembly: UrcAssemblyState = { ussdAwaited: false };

export type UrcAssemblyEvent =
  /** A line from the modem; `commandInFlight` decides what a query's own answer looks like. */
  | { type: 'line'; line: string; commandInFlight: string | undefined }
  /** A command was written: `AT+CUSD=1` makes the next `+CUSD:` an answer that may run on. */
  | { type: 'commandStarted'; command: string }
  /** The transport closed: a half-received code is dropped. */
  | { type: 'closed' };

export interface UrcAssemblyStep {
  state: UrcAssemblyState;
  /** Codes complete with this event, in order. */
  emitted: UnsolicitedCode[];
  /** The line is not part of any code: the command in flight (or the idle hold) gets it. */
  passOn: boolean;
}

export function urcAssemblyTransition(state: UrcAssemblyState, event: UrcAssemblyEvent): UrcAssemblyStep {
  switch (event.type) {
    case 'commandStarted':
      return {
        state: /^AT\+CUSD=1\b/i.test(event.command) ? { ...state, ussdAwaited: true } : state,
        emitted: [],
        passOn: false,
      };
    case 'closed':
      return { state: { ussdAwaited: state.ussdAwaited }, emitted: [], passOn: false };
    case 'line':
      return onLine(state, event.line, event.commandInFlight);
  }
}

function onLine(state: UrcAssemblyState, line: string, commandInFlight: string | undefined): UrcAssemblyStep {
  const pending = state.pending;
  const emitted: UnsolicitedCode[] = [];
  let ussdAwaited = state.ussdAwaited;
  if (pending?.match.name === '+CUSD') {
    // A final result ends a text that was never closed: the line is the command's, not USSD.
    if (classifyFinalResult(line, commandInFlight) === undefined) return continueUssd(state, pending, line);
    emitted.push({ name: pending.match.name, args: pending.match.args, line: pending.line });
    ussdAwaited = false;
  } else if (pending) {
    const code = { name: pending.match.name, args: pending.match.args, line: pending.line, pdu: line };
    return { state: { ussdAwaited }, emitted: [code], passOn: false };
  }
  const urc = classifyUnsolicited(line, commandInFlight);
  if (!urc) return { state: { ussdAwaited }, emitted, passOn: true };
  if (urc.takesNextLine && (urc.name !== '+CUSD' || ussdAwaited)) {
    return {
      state: { ussdAwaited, pending: { match: urc, line, continuations: 0 } },
      emitted,
      passOn: false,
    };
  }
  emitted.push({ name: urc.name, args: urc.args, line });
  if (urc.name === '+CUSD') ussdAwaited = false;
  return { state: { ussdAwaited }, emitted, passOn: false };
}

/** One more line of a multi-line `+CUSD:` text; emitted once its quote closes. */
function continueUssd(state: UrcAssemblyState, pending: PendingCode, line: string): UrcAssemblyStep {
  const args = `${pending.match.args}\n${line}`;
  const whole = `${pending.line}\n${line}`;
  const continuations = pending.continuations + 1;
  if (hasOpenQuote(args) && continuations < maxUssdContinuationLines) {
    const next = { match: { ...pending.match, args }, line: whole, continuations };
    return { state: { ...state, pending: next }, emitted: [], passOn: false };
  }
  return {
    state: { ussdAwaited: false },
    emitted: [{ name: pending.match.name, args, line: whole }],
    passOn: false,
  };
}
