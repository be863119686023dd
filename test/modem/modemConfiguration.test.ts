import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../server/devices/modem/backoff.js';
import { checkModemTiming, defaultModemTiming } from '../../server/devices/modem/modemTiming.js';
import { genericProfile, quirksFor } from '../../server/devices/modem/quirks.js';
import { deriveDeviceId } from '../../server/devices/pool/deviceIdentity.js';
import { ErrorCode, GatewayError } from '../../server/errors/gatewayError.js';

describe('quirksFor', () => {
  it.each([
    ['huawei', 'E1752', 'huawei'],
    ['ZTE CORPORATION', 'K3565-Z', 'zte'],
    ['WAVECOM MODEM', 'MULTIBAND  900E  1800', 'wavecom'],
    ['SIMCOM_Ltd', 'SIMCOM_SIM800L', 'simcom'],
    ['Quectel', 'EC25', 'quectel'],
    ['Sierra Wireless, Incorporated', 'MC7455', 'sierra'],
    ['SAMSUNG', 'SM-G900F', 'android-phone'],
    ['Acme', 'M1', 'generic'],
  ])('picks the %s %s profile: %s', (manufacturer, model, family) => {
    expect(quirksFor(manufacturer, model).family).toBe(family);
  });

  it('treats ZTE +ZDONR and +ZPASR as noise', () => {
    expect(quirksFor('ZTE CORPORATION', 'MF626').noise).toEqual(expect.arrayContaining(['+ZDONR', '+ZPASR']));
  });

  it('completes AT+CPIN? without OK only for Wavecom', () => {
    expect(quirksFor('WAVECOM MODEM', '').cpinWithoutOk).toBe(true);
    expect(quirksFor('huawei', 'E3372').cpinWithoutOk).toBe(false);
  });

  it('polls Android phones instead of waiting for +CMTI', () => {
    expect(quirksFor('samsung', 'SM-G900F').newMessages).toBe('polling');
    expect(genericProfile.newMessages).toBe('indications');
  });
});

describe('deriveDeviceId', () => {
  it('is the same for the same IMEI whatever the port', () => {
    expect(deriveDeviceId({ imei: '356938035643809', port: '/dev/ttyUSB0' })).toBe(
      deriveDeviceId({ imei: '356938035643809', port: '/dev/ttyUSB7' }),
    );
  });

  it('falls back to the USB serial number, then the port', () => {
    const byUsb = deriveDeviceId({ usbSerialNumber: 'SN1', port: '/dev/ttyUSB0' });
    expect(byUsb).toBe(deriveDeviceId({ usbSerialNumber: 'SN1', port: '/dev/ttyUSB3' }));
    expect(deriveDeviceId({ port: '/dev/ttyUSB0' })).not.toBe(deriveDeviceId({ port: '/dev/ttyUSB1' }));
    expect(deriveDeviceId({ imei: 'ERROR', port: '/dev/ttyUSB0' })).toBe(
      deriveDeviceId({ port: '/dev/ttyUSB0' }),
    );
  });
});

describe('backoffDelay', () => {
  it('doubles from the initial delay up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 60].map((attempt) => backoffDelay(attempt, 1_000, 10_000))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000,
    ]);
  });
});

describe('checkModemTiming', () => {
  it('accepts the defaults', () => {
    expect(checkModemTiming({ ...defaultModemTiming })).toEqual(defaultModemTiming);
  });

  it.each([
    ['commandTimeoutMs', 0],
    ['syncAttempts', 0],
    ['syncAttempts', 2.5],
    ['healthIntervalMs', Number.NaN],
    ['backoffMaxMs', 10],
  ] as const)('refuses %s = %s with ConfigInvalid', (key, value) => {
    const error = (() => {
      try {
        checkModemTiming({ ...defaultModemTiming, [key]: value });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe(ErrorCode.ConfigInvalid);
    expect((error as GatewayError).field).toBe(key);
  });
});
