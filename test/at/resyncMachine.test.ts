import { describe, expect, it } from 'vitest';
import {
  probeCommand,
  type ResyncAction,
  type ResyncEvent,
  type ResyncState,
  resyncTransition,
  startResync,
} from '../../server/devices/at/resyncMachine.js';

const at = (name: Exclude<ResyncState['name'], 'inStep' | 'gaveUp'>, attemptsLeft = 3): ResyncState => ({
  name,
  nonce: 4711,
  attemptsLeft,
});
const line = (text: string): ResyncEvent => ({ type: 'line', line: text });
const timeout: ResyncEvent = { type: 'timeout' };
const discard = (text: string): ResyncAction => ({ type: 'discard', line: text });
const write = (command: string): ResyncAction => ({ type: 'write', command });

const table: Array<[string, ResyncState, ResyncEvent, ResyncState, ResyncAction[]]> = [
  [
    'writes the probe after any final result to ATE1 (it may be a late one)',
    at('enablingEcho'),
    line('+CMS ERROR: 303'),
    at('awaitingProbeEcho'),
    [discard('+CMS ERROR: 303'), write('ATS4711?')],
  ],
  [
    'drops information lines while ATE1 is answered',
    at('enablingEcho'),
    line('+CPMS: 0,30'),
    at('enablingEcho'),
    [discard('+CPMS: 0,30')],
  ],
  [
    'drops every final result before the probe echo',
    at('awaitingProbeEcho'),
    line('OK'),
    at('awaitingProbeEcho'),
    [discard('OK')],
  ],
  [
    "drops the echo of an earlier attempt's probe",
    at('awaitingProbeEcho'),
    line('ATS4710?'),
    at('awaitingProbeEcho'),
    [discard('ATS4710?')],
  ],
  [
    'takes its own probe echo, in any case',
    at('awaitingProbeEcho'),
    line('ats4711?'),
    at('awaitingProbeResult'),
    [],
  ],
  [
    "ignores the probe's register value",
    at('awaitingProbeResult'),
    line('000'),
    at('awaitingProbeResult'),
    [],
  ],
  [
    'is in step at the final result after the echo, and turns echo off',
    at('awaitingProbeResult'),
    line('ERROR'),
    at('disablingEcho'),
    [write('ATE0')],
  ],
  ['skips the echo of ATE0', at('disablingEcho'), line('ATE0'), at('disablingEcho'), []],
  ["ends at ATE0's result", at('disablingEcho'), line('OK'), { name: 'inStep', nonce: 4711 }, []],
  [
    'starts again with a new probe number when a step times out',
    at('awaitingProbeEcho', 3),
    timeout,
    { name: 'enablingEcho', nonce: 4712, attemptsLeft: 2 },
    [write('ATE1')],
  ],
  [
    'gives up when the last attempt times out',
    at('disablingEcho', 1),
    timeout,
    { name: 'gaveUp', nonce: 4711 },
    [],
  ],
  ['stays done', { name: 'inStep', nonce: 4711 }, line('OK'), { name: 'inStep', nonce: 4711 }, []],
];

describe('the resync machine', () => {
  for (const [name, before, event, after, actions] of table) {
    it(name, () => {
      expect(resyncTransition(before, event)).toEqual({ state: after, actions });
    });
  }

  it('begins by turning echo on', () => {
    expect(startResync(12, 3)).toEqual({
      state: { name: 'enablingEcho', nonce: 12, attemptsLeft: 3 },
      actions: [write('ATE1')],
    });
  });

  it('never gives up while attempts are unbounded', () => {
    const step = resyncTransition(
      { name: 'enablingEcho', nonce: 1, attemptsLeft: Number.POSITIVE_INFINITY },
      timeout,
    );
    expect(step.state).toMatchObject({ name: 'enablingEcho', nonce: 2 });
  });

  it('probes with an S-parameter read (V.250 §5.3.2) carrying the number', () => {
    expect(probeCommand(9001)).toBe('ATS9001?');
  });
});
