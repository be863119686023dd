import { describe, expect, it } from 'vitest';
import {
  combinedRegistration,
  notRegisteredExplanation,
  technologiesOfWs46,
  technologyOfAct,
} from '../../server/devices/modem/networkState.js';

describe('registration from +CREG, +CGREG and +CEREG', () => {
  it.each([
    [{ '+CREG': 0, '+CGREG': 0, '+CEREG': 1 }, 'home', true],
    [{ '+CREG': 0, '+CEREG': 7 }, 'roaming', true],
    [{ '+CREG': 2 }, 'searching', false],
    [{ '+CREG': 3, '+CEREG': 0 }, 'denied', false],
    [{ '+CREG': 4 }, 'unknown', undefined],
    [{}, undefined, undefined],
  ] as const)('%o → %s (registered: %s)', (stats, registration, registered) => {
    expect(combinedRegistration(stats)).toEqual({
      ...(registration ? { registration } : {}),
      ...(registered === undefined ? {} : { registered }),
    });
  });
});

describe('radio technologies', () => {
  it('maps <AcT> and AT+WS46 values, and leaves unknown ones unknown', () => {
    expect([0, 2, 7, 12, 42].map(technologyOfAct)).toEqual(['2G', '3G', '4G', '5G', undefined]);
    expect(technologiesOfWs46([12])).toEqual(['2G']);
    expect(technologiesOfWs46([12, 22, 25, 28])).toEqual(['2G', '3G', '4G']);
    expect(technologiesOfWs46([29, 99])).toBeUndefined();
  });

  it('reads mode 25 beside 12 and 22 alone as 2G and 3G, as pre-LTE modems mean it', () => {
    expect(technologiesOfWs46([12, 22, 25])).toEqual(['2G', '3G']);
    expect(notRegisteredExplanation('searching', technologiesOfWs46([12, 22, 25]))).toMatch(
      /only speaks 2G and 3G/,
    );
  });

  it('reads a lone mode 25 as 2G, 3G and 4G (TS 27.007 §5.9 since Release 8), saying nothing of switched-off networks', () => {
    expect(technologiesOfWs46([25])).toEqual(['2G', '3G', '4G']);
    expect(notRegisteredExplanation('searching', technologiesOfWs46([25]))).not.toMatch(/only speaks/);
  });

  it('explains a 2G/3G-only modem that finds no network, and a 4G one plainly', () => {
    expect(notRegisteredExplanation('searching', ['2G', '3G'])).toMatch(/only speaks 2G and 3G/);
    expect(notRegisteredExplanation('searching', ['2G', '3G', '4G'])).not.toMatch(/only speaks/);
    expect(notRegisteredExplanation('denied', ['2G'])).toMatch(/refuses this SIM/);
  });
});
