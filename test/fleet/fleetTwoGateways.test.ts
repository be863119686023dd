/**
 * Two gateways (two PCs) registered as two devices of one user on the same private server —
 * the contract double of its device API (test/support/fleetServerDouble.ts; the Go server
 * cannot be built here). The server hands each message to one device; each message must go out
 * exactly once, from the gateway it was given to, and be reported by that gateway only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForReadyModems } from '../integration/support/apiReads.js';
import {
  type DoubleMessage,
  type FleetServerDouble,
  startFleetServerDouble,
} from '../support/fleetServerDouble.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { expectOrderedOnce, reportedStates, waitForFleetState, waitForReport } from './support/fleetReads.js';

const login = 'TWOPCS';
const password = 'two-gateways-secret';

describe('two gateways sharing one private server', () => {
  let double: FleetServerDouble;
  const gateways: GatewayHarness[] = [];
  const messages: DoubleMessage[] = [];

  beforeAll(async () => {
    double = await startFleetServerDouble();
    double.addUser(login, password);
    for (let index = 0; index < 2; index++) {
      const harness = await startGatewayHarness({
        ptyModems: 1,
        ptyModemOptions: () => ({ statusReportDelayMs: 100 }),
        fleetPollIntervalMs: 500,
        options: { fleetServer: { url: double.baseUrl, token: `Basic ${login}:${password}` } },
      });
      gateways.push(harness);
      await waitForReadyModems(harness.api, 1);
      await waitForFleetState(harness.api, 'connected');
    }
    for (let index = 0; index < 8; index++) {
      messages.push(
        double.enqueue({ text: `shared ${index}`, phoneNumbers: [phoneOf(index)], userId: login }),
      );
    }
    for (const message of messages) await waitForReport(double, message.id, 'Delivered', 30_000);
  }, 120_000);

  afterAll(async () => {
    for (const harness of gateways) await harness.close();
    await double?.close();
  });

  it('registered two devices of the same user', () => {
    expect(double.devices.map((device) => device.userId)).toEqual([login, login]);
  });

  it('sent each message exactly once, from the gateway it was given to', () => {
    const deviceIds = double.devices.map((device) => device.id);
    for (const [index, message] of messages.entries()) {
      const counts = gateways.map(
        (harness) =>
          harness.acceptedBy(0).filter((pdu) => pdu.decoded.recipient.number === phoneOf(index)).length,
      );
      const owner = deviceIds.indexOf(message.deviceId);
      expect(counts, message.id).toEqual(owner === 0 ? [1, 0] : [0, 1]);
    }
    // Both gateways had work: the server spread it.
    expect(new Set(messages.map((message) => message.deviceId)).size).toBe(2);
  });

  it('had each message reported only by its own gateway, each state once and in order', async () => {
    for (const message of messages) {
      expect(
        double.patches
          .filter((patch) => patch.item.id === message.id)
          .every((patch) => patch.deviceId === message.deviceId),
      ).toBe(true);
      expectOrderedOnce(reportedStates(double, message.id));
    }
    // Each gateway's queue holds exactly the messages given to its device (gateway 0 registered
    // first, so it is device 0).
    for (const [index, harness] of gateways.entries()) {
      const held = (await harness.api.get<{ id: string }[]>('/messages?limit=100')).body.map(
        (message) => message.id,
      );
      const given = messages.filter((message) => message.deviceId === double.devices[index]?.id);
      expect(held.sort()).toEqual(given.map((message) => message.id).sort());
    }
  });
});

function phoneOf(index: number): string {
  return `+4477009005${String(index).padStart(2, '0')}`;
}
