import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import {
  ModemRecovery,
  type RecoveryStep,
  unreachableStatus,
} from '../../server/devices/modem/modemRecovery.js';
import { ErrorCode, GatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';

const timeout = new GatewayError(ErrorCode.AtTimeout, 'AT timed out: no final result within 5000 ms');
const portGone = new GatewayError(ErrorCode.TransportOpenFailed, 'cannot open /dev/ttyUSB2');
const wrongPin = new GatewayError(ErrorCode.SimPinWrong, 'the SIM rejected the PIN');

/** A recovery whose steps fail with the given errors, in order, and then succeed. */
function recoveryFailing(failures: Error[]) {
  const clock = new ManualClock();
  const steps: RecoveryStep[] = [];
  const reopenFailures: unknown[] = [];
  const recovery = new ModemRecovery({
    clock,
    logger: silentLogger,
    backoffInitialMs: 1_000,
    backoffMaxMs: 4_000,
    stopped: () => false,
    begin: () => undefined,
    run: async (step) => {
      steps.push(step);
      const failure = failures.shift();
      if (failure) throw failure;
    },
    isTerminal: (error) => error === wrongPin,
    reopenFailed: (error) => reopenFailures.push(error),
  });
  return { clock, recovery, steps, reopenFailures };
}

describe('modem recovery', () => {
  it('escalates probe → re-init → reopen, and reopens again after a back-off until one works', async () => {
    const { clock, recovery, steps, reopenFailures } = recoveryFailing([
      timeout,
      timeout,
      portGone,
      portGone,
    ]);

    const done = recovery.recover('probe');
    await clock.advance(0);
    expect(steps).toEqual(['probe', 'reinit', 'reopen']);
    await clock.advance(999);
    expect(steps).toEqual(['probe', 'reinit', 'reopen']);
    await clock.advance(1);
    expect(steps).toEqual(['probe', 'reinit', 'reopen', 'reopen']);
    await clock.advance(2_000);
    await done;

    expect(steps).toEqual(['probe', 'reinit', 'reopen', 'reopen', 'reopen']);
    expect(reopenFailures).toEqual([portGone, portGone]);
  });

  it('stops at a failure that needs a person (a wrong PIN)', async () => {
    const { recovery, steps } = recoveryFailing([wrongPin, timeout]);

    await recovery.recover('reinit');

    expect(steps).toEqual(['reinit']);
  });

  it('runs one recovery at a time', async () => {
    const { clock, recovery, steps } = recoveryFailing([timeout]);

    const first = recovery.recover('probe');
    await recovery.recover('reopen');
    await clock.advance(0);
    await first;

    expect(steps).toEqual(['probe', 'reinit']);
  });
});

describe('the status a failed attempt to reach the modem leaves', () => {
  it.each([
    {
      case: 'a modem that answers but is not usable',
      error: new GatewayError(ErrorCode.ModemNotReady, 'no SIM card in the modem'),
      hasSession: true,
      status: 'recovering',
      reason: 'not-usable',
    },
    {
      case: 'a port that cannot be opened',
      error: portGone,
      hasSession: true,
      status: 'offline',
      reason: 'port-missing',
    },
    {
      case: 'a port the system does not let the gateway open',
      error: new GatewayError(ErrorCode.TransportAccessDenied, 'cannot open /dev/ttyUSB0: Permission denied'),
      hasSession: false,
      status: 'offline',
      reason: 'port-access-denied',
    },
    {
      case: 'a transport that closed',
      error: new GatewayError(ErrorCode.TransportClosed, 'closed'),
      hasSession: true,
      status: 'offline',
      reason: 'port-missing',
    },
    {
      case: 'a timeout with no session open',
      error: timeout,
      hasSession: false,
      status: 'offline',
      reason: 'port-missing',
    },
    {
      case: 'a timeout on an open session',
      error: timeout,
      hasSession: true,
      status: 'recovering',
      reason: 'not-answering',
    },
  ] as const)('is $status ($reason) after $case', ({ error, hasSession, status, reason }) => {
    expect(unreachableStatus(error, hasSession)).toMatchObject({ status, reason });
  });
});
