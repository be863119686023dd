import { describe, expect, it } from 'vitest';
import type { FinalResult } from '../../server/devices/at/finalResults.js';
import {
  initialSendPduState,
  type SendPduAction,
  type SendPduEvent,
  type SendPduFailureReason,
  type SendPduRejection,
  type SendPduState,
  transition,
} from '../../server/devices/at/sendPduMachine.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';

const ok: FinalResult = { kind: 'ok' };
const cms500Error = {
  kind: 'error',
  code: ErrorCode.CmsError,
  modemCode: 500,
  line: '+CMS ERROR: 500',
} as const;
const awaitingPrompt = initialSendPduState;
const sendingPdu: SendPduState = { name: 'sendingPdu' };
const awaitingResult: SendPduState = { name: 'awaitingResult' };
const done: SendPduState = { name: 'done' };
const failed = (reason: Exclude<SendPduFailureReason, SendPduRejection>): SendPduState => ({
  name: 'failed',
  reason,
});

const table: Array<[string, SendPduState, SendPduEvent, SendPduState, SendPduAction[]]> = [
  ['writes the PDU when the prompt arrives', awaitingPrompt, { type: 'prompt' }, sendingPdu, ['writePdu']],
  [
    'fails without writing the PDU when +CMS ERROR comes instead of the prompt',
    awaitingPrompt,
    { type: 'final', result: cms500Error },
    {
      name: 'failed',
      reason: 'rejectedBeforePrompt',
      result: cms500Error,
    },
    [],
  ],
  [
    'fails when OK comes instead of the prompt',
    awaitingPrompt,
    { type: 'final', result: ok },
    failed('noPrompt'),
    [],
  ],
  [
    'writes ESC when the prompt times out',
    awaitingPrompt,
    { type: 'timeout' },
    failed('promptTimeout'),
    ['writeEscape'],
  ],
  [
    'arms the result timer once the PDU is written',
    sendingPdu,
    { type: 'pduWritten' },
    awaitingResult,
    ['armResultTimer'],
  ],
  ['completes on OK after the PDU', awaitingResult, { type: 'final', result: ok }, done, []],
  ['completes on an OK that beats the write callback', sendingPdu, { type: 'final', result: ok }, done, []],
  [
    'fails as rejected on +CMS ERROR after the PDU',
    awaitingResult,
    { type: 'final', result: cms500Error },
    { name: 'failed', reason: 'rejected', result: cms500Error },
    [],
  ],
  [
    'fails when the network result times out',
    awaitingResult,
    { type: 'timeout' },
    failed('resultTimeout'),
    [],
  ],
  ['fails when the PDU cannot be written', sendingPdu, { type: 'writeFailed' }, failed('writeFailed'), []],
  [
    'fails when the session closes while waiting',
    awaitingPrompt,
    { type: 'closed' },
    failed('sessionClosed'),
    [],
  ],
  ['ignores a second prompt while sending', sendingPdu, { type: 'prompt' }, sendingPdu, []],
  [
    'ignores a stray pduWritten before the prompt',
    awaitingPrompt,
    { type: 'pduWritten' },
    awaitingPrompt,
    [],
  ],
  ['ignores a repeated pduWritten', awaitingResult, { type: 'pduWritten' }, awaitingResult, []],
  ['stays done whatever arrives later', done, { type: 'timeout' }, done, []],
  [
    'stays failed whatever arrives later',
    failed('resultTimeout'),
    { type: 'final', result: ok },
    failed('resultTimeout'),
    [],
  ],
];

describe('sendPduMachine', () => {
  it.each(table)('%s', (_name, from, event, to, actions) => {
    expect(transition(from, event)).toEqual({ state: to, actions });
  });
});
