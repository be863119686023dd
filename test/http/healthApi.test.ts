import { afterEach, describe, expect, it } from 'vitest';
import { modemRefused } from '../../server/contract/domain/failureTexts.js';
import { apiBases } from '../../server/doors/http/app.js';
import { deviceInfo, type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

interface Report {
  status: string;
  version: string;
  releaseId: number;
  checks: Record<
    string,
    { status: string; observedValue: number; observedUnit: string; description: string }
  >;
}

let harness: HttpHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function health(options: Parameters<typeof startHttpHarness>[0] = {}) {
  harness ??= await startHttpHarness(options);
  const response = await harness.request('/health', { authorization: null });
  return { status: response.status, report: response.body as Report };
}

describe('GET /health', () => {
  it.each(apiBases)(
    'answers 200 pass without credentials at %s/health when everything is well',
    async (base) => {
      harness = await startHttpHarness();
      const response = await harness.request(`${base}/health`, { authorization: null });
      expect(response.status).toBe(200);
      const report = response.body as Report;
      expect(report.status).toBe('pass');
      expect(report.version).toBe('1.2.3');
      expect(Object.keys(report.checks).sort()).toEqual([
        'messages:failed',
        'messages:queue',
        'modems:connected',
        'modems:real',
        'modems:signal',
        'sim:ready',
        'storage:writable',
      ]);
      expect(report.checks['modems:connected']).toEqual({
        status: 'pass',
        observedValue: 1,
        observedUnit: 'modems',
        description: expect.any(String),
      });
    },
  );

  it('answers 503 fail when no modem is connected', async () => {
    const { status, report } = await health({ devices: [] });
    expect(status).toBe(503);
    expect(report.status).toBe('fail');
    expect(report.checks['modems:connected']?.status).toBe('fail');
  });

  it('names each modem that is not ready, with what to do about it', async () => {
    const unplugged = deviceInfo('unplugged');
    unplugged.name = 'Huawei E3372';
    unplugged.modem = {
      ...unplugged.modem,
      port: 'COM5',
      manufacturer: 'Huawei',
      model: 'E3372',
      status: 'offline',
      statusReason: 'port-missing',
    };
    const locked = deviceInfo('locked');
    locked.name = 'Front desk';
    locked.modem = { ...locked.modem, port: '/dev/ttyUSB2', model: 'EC25', status: 'sim-pin-required' };
    const { report } = await health({ devices: [deviceInfo('fine'), unplugged, locked] });
    expect(report.checks['modems:connected']).toMatchObject({
      status: 'warn',
      description:
        '1 of 3 modems ready to send. ' +
        'Modem Huawei E3372 on COM5 is offline: its port is gone — check the USB cable, or close the program that holds the port. ' +
        '“Front desk” (EC25) on /dev/ttyUSB2 waits for its SIM PIN — enter it on the Modems screen',
    });
  });

  it('answers 503 fail when the data directory does not accept writes', async () => {
    harness = await startHttpHarness();
    harness.setStorageWritable(false);
    const { status, report } = await health();
    expect(status).toBe(503);
    expect(report.checks['storage:writable']).toMatchObject({ status: 'fail', observedValue: 0 });
  });

  it('answers 200 warn for a weak signal', async () => {
    const weak = deviceInfo('weak');
    weak.modem.signal = { rssi: 3, dbm: -107, bars: 0 };
    const { status, report } = await health({ devices: [weak] });
    expect(status).toBe(200);
    expect(report.status).toBe('warn');
    expect(report.checks['modems:signal']).toMatchObject({ status: 'warn', observedValue: -107 });
  });

  it('warns that no real SMS can leave when only the simulated modem is ready', async () => {
    const simulator = deviceInfo('simulator');
    simulator.modem.simulated = true;
    const unplugged = deviceInfo('usb-stick');
    unplugged.modem.status = 'offline';
    const { status, report } = await health({ devices: [simulator, unplugged] });
    expect(status).toBe(200);
    expect(report.status).toBe('warn');
    expect(report.checks['modems:real']).toEqual({
      status: 'warn',
      observedValue: 0,
      observedUnit: 'modems',
      description: 'Only the simulated modem is ready: no real SMS can leave',
    });
  });

  it('passes the real-modem check while a real modem is ready beside the simulated one', async () => {
    const simulator = deviceInfo('simulator');
    simulator.modem.simulated = true;
    const { report } = await health({ devices: [simulator, deviceInfo('usb-stick')] });
    expect(report.checks['modems:real']).toMatchObject({ status: 'pass', observedValue: 1 });
  });

  it('fails the SIM check when every modem waits for its PIN', async () => {
    const locked = deviceInfo('locked');
    locked.modem.status = 'sim-pin-required';
    const { status, report } = await health({ devices: [locked] });
    expect(status).toBe(503);
    expect(report.checks['sim:ready']).toMatchObject({ status: 'fail', observedValue: 1 });
  });

  it('counts only messages that failed within the last hour', async () => {
    harness = await startHttpHarness();
    for (const id of ['old', 'new']) {
      await harness.request('/messages', {
        method: 'POST',
        json: { id, textMessage: { text: 'x' }, phoneNumbers: ['+15551234567'] },
      });
      await harness.lifecycle.failAll(id, modemRefused('modem refused', 500));
      await harness.clock.advance(2 * 3_600_000 * (id === 'old' ? 1 : 0));
    }
    const { status, report } = await health();
    expect(status).toBe(200);
    expect(report.checks['messages:failed']).toMatchObject({ status: 'warn', observedValue: 1 });
  });

  it('reports the queue depth and fails at the enqueue limit', async () => {
    harness = await startHttpHarness({ maxPendingMessages: 2 });
    for (const id of ['a', 'b']) {
      await harness.request('/messages', {
        method: 'POST',
        json: { id, textMessage: { text: 'x' }, phoneNumbers: ['+15551234567'] },
      });
    }
    const { status, report } = await health();
    expect(status).toBe(503);
    expect(report.checks['messages:queue']).toMatchObject({ status: 'fail', observedValue: 2 });
  });
});
