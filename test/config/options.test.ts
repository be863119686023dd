import { describe, expect, it } from 'vitest';
import { checkOptions, defaultOptions, type GatewayOptions } from '../../server/config/options.js';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';

function refusal(change: (options: GatewayOptions) => void): { code: unknown; field: unknown } {
  const options = defaultOptions();
  change(options);
  try {
    checkOptions(options);
  } catch (error) {
    if (isGatewayError(error)) return { code: error.code, field: error.field };
    throw error;
  }
  throw new Error('expected the options to be refused');
}

describe('the options object', () => {
  it('carries the modem timings, the AT session waits and the health thresholds, and accepts its defaults', () => {
    const options = defaultOptions();
    expect(options.modemTiming.sendTimeoutMs).toBe(60_000);
    expect(options.atSession.resyncQuietMs).toBe(1_000);
    expect(options.health).toEqual({ weakSignalDbm: -105, failedWarn: 1, failedFail: 50, queueWarn: 1_000 });
    expect(checkOptions(options)).toBe(options);
  });

  it.each<[string, (options: GatewayOptions) => void, string]>([
    ['a modem timing of zero', (options) => (options.modemTiming.commandTimeoutMs = 0), 'modemTiming'],
    ['a back-off cap below its start', (options) => (options.modemTiming.backoffMaxMs = 10), 'modemTiming'],
    [
      'an AT wait longer than a day',
      (options) => (options.atSession.resyncTimeoutMs = 2 * 86_400_000),
      'atSession',
    ],
    ['a take-over with no probe', (options) => (options.atSession.resyncAttempts = 0), 'atSession'],
    [
      'a HiLink timeout of a millisecond',
      (options) => (options.hilinkRequestTimeoutMs = 1),
      'hilinkRequestTimeoutMs',
    ],
    ['a signal threshold no modem reports', (options) => (options.health.weakSignalDbm = -20), 'health'],
    ['a failure threshold below the warning one', (options) => (options.health.failedFail = 0), 'health'],
    ['a module name with a space', (options) => (options.moduleLogLevels = { 'a t': 'DEBUG' }), 'log-level'],
  ])('refuses %s at start-up, naming the option', (_case, change, field) => {
    expect(refusal(change)).toEqual({ code: ErrorCode.ConfigInvalid, field });
  });
});
