/**
 * The `AT+CMGS=<length>` exchange of TS 27.005 §3.5.1 (PDU mode) as a pure state machine
 * (pattern: zwave-js SerialAPICommandMachine). The session does the I/O and feeds events in;
 * the machine says what to write next and how the exchange ends.
 *
 *   awaitingPrompt --prompt--> sendingPdu --pduWritten--> awaitingResult --OK--> done
 *        |                          |                           |
 *        +-- ERROR / +CMS ERROR --> failed(rejectedBeforePrompt)    (no PDU is written)
 *        +-- timeout -------------> failed(promptTimeout) + write ESC to abort the input
 *                                   +-- ERROR / +CMS ERROR -----> failed(rejected)
 *                                   +-- timeout ----------------> failed(resultTimeout)
 */
import type { FinalResult } from './finalResults.js';

/** The modem answered with an error result; the result says which (ERROR, +CMS ERROR <n>…). */
export type SendPduRejection =
  /** ERROR / +CMS ERROR instead of the "> " prompt: the PDU was never written. */
  | 'rejectedBeforePrompt'
  /** The network or modem refused the PDU (+CMS ERROR after the Ctrl-Z). */
  | 'rejected';

export type SendPduFailureReason =
  | SendPduRejection
  /** A bare OK instead of the prompt: the modem did not enter PDU input. */
  | 'noPrompt'
  | 'promptTimeout'
  | 'resultTimeout'
  | 'writeFailed'
  | 'sessionClosed';

export type SendPduState =
  | { name: 'awaitingPrompt' }
  | { name: 'sendingPdu' }
  | { name: 'awaitingResult' }
  | { name: 'done' }
  | { name: 'failed'; reason: SendPduRejection; result: Extract<FinalResult, { kind: 'error' }> }
  | { name: 'failed'; reason: Exclude<SendPduFailureReason, SendPduRejection> };

export type SendPduEvent =
  | { type: 'prompt' }
  | { type: 'pduWritten' }
  | { type: 'final'; result: FinalResult }
  | { type: 'timeout' }
  | { type: 'writeFailed' }
  | { type: 'closed' };

export type SendPduAction =
  /** Write the PDU hex followed by Ctrl-Z (0x1A). */
  | 'writePdu'
  /** Write ESC (0x1B): TS 27.005 §3.5.1 "sending ESC shall cancel the edited message". */
  | 'writeEscape'
  /** Replace the prompt timer with the (longer) network result timer. */
  | 'armResultTimer';

export interface SendPduStep {
  state: SendPduState;
  actions: SendPduAction[];
}

export const initialSendPduState: SendPduState = { name: 'awaitingPrompt' };

export function isTerminal(state: SendPduState): boolean {
  return state.name === 'done' || state.name === 'failed';
}

export function transition(state: SendPduState, event: SendPduEvent): SendPduStep {
  const stay: SendPduStep = { state, actions: [] };
  if (isTerminal(state)) return stay;
  if (event.type === 'closed') return fail('sessionClosed');
  if (event.type === 'writeFailed') return fail('writeFailed');

  switch (state.name) {
    case 'awaitingPrompt':
      if (event.type === 'prompt') return { state: { name: 'sendingPdu' }, actions: ['writePdu'] };
      if (event.type === 'timeout') return { state: failed('promptTimeout'), actions: ['writeEscape'] };
      if (event.type === 'final') {
        return event.result.kind === 'ok'
          ? fail('noPrompt')
          : { state: { name: 'failed', reason: 'rejectedBeforePrompt', result: event.result }, actions: [] };
      }
      return stay;
    case 'sendingPdu':
    case 'awaitingResult':
      if (event.type === 'pduWritten') {
        return state.name === 'sendingPdu'
          ? { state: { name: 'awaitingResult' }, actions: ['armResultTimer'] }
          : stay;
      }
      if (event.type === 'timeout') return fail('resultTimeout');
      // A fast modem can answer before the write callback: the result counts in either state.
      if (event.type === 'final') {
        return event.result.kind === 'ok'
          ? { state: { name: 'done' }, actions: [] }
          : { state: { name: 'failed', reason: 'rejected', result: event.result }, actions: [] };
      }
      return stay;
  }
  return stay;
}

function failed(reason: Exclude<SendPduFailureReason, SendPduRejection>): SendPduState {
  return { name: 'failed', reason };
}

function fail(reason: Exclude<SendPduFailureReason, SendPduRejection>): SendPduStep {
  return { state: failed(reason), actions: [] };
}
