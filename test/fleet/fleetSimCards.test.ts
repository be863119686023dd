/**
 * Fleet mode, SIM cards: the gateway tells the private server the SIM cards of its modems with
 * the registration (`POST /mobile/v1/device` `simCards`) and again with `PATCH /mobile/v1/device`
 * whenever they change and at each start, masked as the Android app masks them. The server is
 * the contract double of its device API (test/support/fleetServerDouble.ts; the Go server
 * cannot be built here); the modem is a simulator behind a pty, unplugged and plugged back in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForReadyModems } from '../integration/support/apiReads.js';
import { type FleetServerDouble, startFleetServerDouble } from '../support/fleetServerDouble.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { waitForFleetState } from './support/fleetReads.js';

/** The simulator's SIM (simulator/modemIdentity.ts defaults) as the server should see it. */
const maskedSim = {
  slotIndex: 0,
  simNumber: 1,
  phoneNumber: '*********0001',
  carrierName: '********work',
  iccid: '***************0123',
};

interface DeviceView {
  id: string;
  simCards: { phoneNumber?: string; iccid?: string }[];
}

describe('fleet mode SIM cards', () => {
  let double: FleetServerDouble;
  let harness: GatewayHarness;

  const serverSims = () => double.devices[0]?.simCards;
  const waitForServerSims = (expected: unknown[], what: string, limitMs?: number) =>
    pollUntil(() => JSON.stringify(serverSims()) === JSON.stringify(expected), {
      what: `${what} (server holds ${JSON.stringify(serverSims())})`,
      ...(limitMs === undefined ? {} : { limitMs }),
    });
  /**
   * A modem unplugged in the middle of an AT command is noticed when that command times out
   * (10 s by default) and the recovery's probe and reopen find no port: that, not a PATCH, can
   * take this long. Idle, it is noticed at once.
   */
  const unplugNoticedMs = 40_000;

  beforeAll(async () => {
    double = await startFleetServerDouble();
    harness = await startGatewayHarness({ ptyModems: 1, fleetPollIntervalMs: 500 });
    await waitForReadyModems(harness.api, 1);
    await pollUntil(
      async () => {
        const devices = (await harness.api.get<DeviceView[]>('/devices')).body;
        return devices[0]?.simCards[0]?.iccid !== undefined;
      },
      { what: 'the SIM details read from the modem' },
    );
  });

  afterAll(async () => {
    await harness?.close();
    await double?.close();
  });

  it('registers with the SIM cards of its modems, masked as the app masks them', async () => {
    await harness.api.patch('/settings', {
      gateway: { cloud_url: double.baseUrl, private_token: double.serverKey },
    });
    await waitForFleetState(harness.api, 'connected');
    expect(double.devices).toHaveLength(1);
    expect(serverSims()).toEqual([maskedSim]);
  });

  it('patches the device when a modem goes away and when it comes back', async () => {
    const deviceId = double.devices[0]?.id;
    await harness.unplug(0);
    await waitForServerSims([], 'no SIM card once the modem is unplugged', unplugNoticedMs);
    await harness.replug(0);
    await waitForServerSims([maskedSim], 'the SIM card back once the modem is plugged in');
    await waitForReadyModems(harness.api, 1);

    const updates = double.deviceUpdates.filter((update) => update.deviceId === deviceId);
    expect(updates.length).toBeGreaterThanOrEqual(2);
    for (const update of updates) {
      expect(Object.keys(update.body).sort()).toEqual(['id', 'simCards']);
      expect(update.body.id).toBe(deviceId);
    }
    expect(double.devices).toHaveLength(1);
  }, 90_000);

  it('sends a refused PATCH again by itself while the events stream stays open and quiet', async () => {
    await harness.unplug(0);
    await waitForServerSims([], 'no SIM card once the modem is unplugged', unplugNoticedMs);
    double.setRouteAvailable('PATCH /device', false);
    const before = double.requests.get('PATCH /device') ?? 0;
    await harness.replug(0);
    await waitForReadyModems(harness.api, 1);
    await pollUntil(() => (double.requests.get('PATCH /device') ?? 0) > before, {
      what: 'a PATCH /device once the modem is back',
    });
    expect(serverSims()).toEqual([]);
    double.setRouteAvailable('PATCH /device', true);
    await waitForServerSims([maskedSim], 'the SIM card once the server takes PATCHes again');
  }, 90_000);

  it('patches the device at each start, as the app does, without registering again', async () => {
    const before = double.deviceUpdates.length;
    await harness.restart();
    await waitForFleetState(harness.api, 'connected');
    await pollUntil(() => double.deviceUpdates.length > before, {
      what: 'a PATCH /device after the restart',
    });
    await waitForServerSims([maskedSim], 'the SIM card after the restart');
    expect(double.devices).toHaveLength(1);
  });
});
