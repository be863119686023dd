/**
 * Fleet mode, work: messages of the private server (the contract double of its device API,
 * test/support/fleetServerDouble.ts — the Go server cannot be built here) reach our queue by
 * SSE push or by polling, go out through a simulated modem behind a pty opened by the real
 * serialport binding, and their states go back in upstream's MobilePatchMessageItem shape —
 * also across an outage of the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiMessage, waitForReadyModems } from '../integration/support/apiReads.js';
import { type FleetServerDouble, startFleetServerDouble } from '../support/fleetServerDouble.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import {
  expectOrderedWithRepeats,
  fleetStatusOf,
  reportedStates,
  reportsFor,
  waitForFleetState,
  waitForReport,
} from './support/fleetReads.js';

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function pdusTo(harness: GatewayHarness, phoneNumber: string) {
  return harness.acceptedBy(0).filter((pdu) => pdu.decoded.recipient.number === phoneNumber);
}

describe('fleet mode sending', () => {
  let double: FleetServerDouble;
  let harness: GatewayHarness;
  let deviceId: string;

  beforeAll(async () => {
    double = await startFleetServerDouble();
    harness = await startGatewayHarness({
      ptyModems: 1,
      ptyModemOptions: () => ({ statusReportDelayMs: 200 }),
      fleetPollIntervalMs: 500,
      options: { fleetServer: { url: double.baseUrl, token: double.serverKey } },
    });
    await waitForReadyModems(harness.api, 1);
    await waitForFleetState(harness.api, 'connected');
    deviceId = double.devices[0]?.id ?? '';
  });

  afterAll(async () => {
    await harness?.close();
    await double?.close();
  });

  it('sends a message pushed over SSE and reports Pending, Processed, Sent, Delivered in the upstream shape', async () => {
    const message = double.enqueue({ text: 'from the fleet', phoneNumbers: ['+447700900301'] });
    await waitForReport(double, message.id, 'Delivered');
    expect(reportedStates(double, message.id)).toEqual(['Pending', 'Processed', 'Sent', 'Delivered']);
    for (const report of reportsFor(double, message.id)) {
      expect(Object.keys(report).sort()).toEqual(['id', 'recipients', 'state', 'states']);
      expect(report.recipients).toEqual([{ phoneNumber: '+447700900301', state: report.state }]);
      for (const time of Object.values(report.states)) expect(time).toMatch(isoTime);
    }
    expect(Object.keys(reportsFor(double, message.id).at(-1)?.states ?? {})).toEqual(
      expect.arrayContaining(['Pending', 'Processed', 'Sent', 'Delivered']),
    );
    // The server's view follows, and the message went out once, under the server's id.
    expect(double.message(message.id)?.state).toBe('Delivered');
    expect(pdusTo(harness, '+447700900301')).toHaveLength(1);
    const local = await harness.api.get<ApiMessage & { source?: string }>(`/messages/${message.id}`);
    expect(local.body).toMatchObject({ id: message.id, state: 'Delivered', source: 'server' });
    expect(double.patches.every((patch) => patch.deviceId === deviceId)).toBe(true);
  });

  it('reports Failed with the modem error when the modem refuses the send', async () => {
    harness.ptyModem(0).failSends(500, 1);
    const message = double.enqueue({ text: 'refused', phoneNumbers: ['+447700900302'] });
    await waitForReport(double, message.id, 'Failed');
    expect(reportedStates(double, message.id)).toEqual(['Pending', 'Processed', 'Failed']);
    const failed = reportsFor(double, message.id).at(-1);
    expect(failed?.recipients).toEqual([
      { phoneNumber: '+447700900302', state: 'Failed', error: expect.stringMatching(/\b500\b/) },
    ]);
    expect(double.message(message.id)?.state).toBe('Failed');
  });

  it('queues a message fetched again before its report landed only once', async () => {
    // The server keeps it Pending (its PATCH fails), so every fetch returns it again.
    double.setRouteAvailable('PATCH /message', false);
    const message = double.enqueue({ text: 'twice', phoneNumbers: ['+447700900303'] });
    await pollUntil(() => pdusTo(harness, '+447700900303').length === 1, { what: 'the send' });
    const fetchesBefore = double.requests.get('GET /message') ?? 0;
    double.enqueue({ text: 'nudge 1', phoneNumbers: ['+447700900304'] });
    double.enqueue({ text: 'nudge 2', phoneNumbers: ['+447700900305'] });
    await pollUntil(() => (double.requests.get('GET /message') ?? 0) >= fetchesBefore + 2, {
      what: 'two more fetches',
    });
    expect(double.message(message.id)?.state).toBe('Pending');
    expect(reportedStates(double, message.id)).toEqual([]);

    double.setRouteAvailable('PATCH /message', true);
    double.enqueue({ text: 'nudge 3', phoneNumbers: ['+447700900307'] });
    await waitForReport(double, message.id, 'Delivered');
    expect(pdusTo(harness, '+447700900303')).toHaveLength(1);
    expectOrderedWithRepeats(reportedStates(double, message.id));
    expect(reportedStates(double, message.id)[0]).toBe('Pending');
  });

  it('polls every interval while the events stream is refused, and listens again when it is back', async () => {
    double.setRouteAvailable('GET /events', false);
    await waitForFleetState(harness.api, 'reconnecting');
    const message = double.enqueue({
      text: 'found by polling',
      phoneNumbers: ['+447700900306'],
      silent: true,
    });
    await waitForReport(double, message.id, 'Delivered');
    expect(pdusTo(harness, '+447700900306')).toHaveLength(1);
    expect((await fleetStatusOf(harness.api)).enabled).toBe(true);

    double.setRouteAvailable('GET /events', true);
    await waitForFleetState(harness.api, 'connected');
    expect(double.openStreams(deviceId)).toBe(1);
  });

  it('keeps every state while the server is down and reports each once, in order, when it is back', async () => {
    const messages = ['+447700900311', '+447700900312', '+447700900313'].map((phoneNumber) =>
      double.enqueue({ text: `outage ${phoneNumber}`, phoneNumbers: [phoneNumber] }),
    );
    // Sending is paused until the server heard Pending of each and went away: Processed, Sent
    // and Delivered all happen while it is down.
    harness.gateway.setSendingPaused(true);
    await pollUntil(() => messages.every((message) => reportedStates(double, message.id).length > 0), {
      what: 'a first report of each message',
    });
    await double.down();
    harness.gateway.setSendingPaused(false);
    await pollUntil(
      async () => {
        const states = await Promise.all(
          messages.map(
            async (message) => (await harness.api.get<ApiMessage>(`/messages/${message.id}`)).body.state,
          ),
        );
        return states.every((state) => state === 'Delivered' || state === 'Failed');
      },
      { what: 'every message final on the gateway', limitMs: 30_000 },
    );
    const waiting = await fleetStatusOf(harness.api);
    expect(waiting).toMatchObject({ enabled: true, state: 'reconnecting' });
    expect(waiting.unreportedStates).toBeGreaterThan(0);

    await double.up();
    for (const message of messages) await waitForReport(double, message.id, 'Delivered', 30_000);
    for (const message of messages) {
      expect(reportedStates(double, message.id)).toEqual(['Pending', 'Processed', 'Sent', 'Delivered']);
      expect(double.message(message.id)?.state).toBe('Delivered');
    }
    await pollUntil(async () => (await fleetStatusOf(harness.api)).unreportedStates === 0, {
      what: 'an empty report outbox',
    });
  });

  it('fetches once at start what was enqueued while the gateway was stopped', async () => {
    await harness.gateway.stop();
    const message = double.enqueue({ text: 'while stopped', phoneNumbers: ['+447700900321'], silent: true });
    await harness.restart();
    await waitForReport(double, message.id, 'Delivered');
    expect(pdusTo(harness, '+447700900321')).toHaveLength(1);
  });
});
