/**
 * Fleet mode, cancellation (server 1.45 and later): a message cancelled on the private server
 * is Cancelling there, listed so by `GET /message` and announced by a MessageCancelled push;
 * the gateway never hands it to a modem and reports it Cancelled, as the app does. A message
 * cancelled through our own API is reported Cancelled too. The server is the contract double of
 * its device API (test/support/fleetServerDouble.ts; the Go server cannot be built here).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiMessage } from '../integration/support/apiReads.js';
import { type FleetServerDouble, startFleetServerDouble } from '../support/fleetServerDouble.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { reportedStates, reportsFor, waitForFleetState, waitForReport } from './support/fleetReads.js';

describe('fleet mode cancellation', () => {
  let double: FleetServerDouble;
  let harness: GatewayHarness;

  const sentTo = (phoneNumber: string) =>
    (harness.gateway.simulatedModems[0]?.accepted ?? []).filter(
      (pdu) => pdu.decoded.recipient.number === phoneNumber,
    );
  const localState = async (id: string) => (await harness.api.get<ApiMessage>(`/messages/${id}`)).body.state;
  const waitForLocalState = (id: string, state: string) =>
    pollUntil(async () => (await harness.api.get<ApiMessage>(`/messages/${id}`)).body.state === state, {
      what: `message ${id} ${state} on the gateway`,
    });

  beforeAll(async () => {
    double = await startFleetServerDouble();
    harness = await startGatewayHarness({
      simulatedModems: 1,
      fleetPollIntervalMs: 500,
      options: { fleetServer: { url: double.baseUrl, token: double.serverKey } },
    });
    await waitForFleetState(harness.api, 'connected');
  });

  afterEach(() => {
    double.setRouteAvailable('PATCH /message', true);
    harness.gateway.setSendingPaused(false);
  });

  afterAll(async () => {
    await harness?.close();
    await double?.close();
  });

  it('never queues a message cancelled before it was fetched, and reports it Cancelled', async () => {
    const cancelled = double.enqueue({ text: 'never', phoneNumbers: ['+447700900801'], silent: true });
    double.cancel(cancelled.id);
    const other = double.enqueue({ text: 'goes out', phoneNumbers: ['+447700900802'] });
    await waitForReport(double, cancelled.id, 'Cancelled');
    await waitForReport(double, other.id, 'Sent');

    // A fetch answered before the report landed may have it reported once more, never otherwise.
    expect(new Set(reportedStates(double, cancelled.id))).toEqual(new Set(['Cancelled']));
    expect(reportsFor(double, cancelled.id)[0]).toEqual({
      id: cancelled.id,
      state: 'Cancelled',
      recipients: [{ phoneNumber: '+447700900801', state: 'Cancelled' }],
      states: { Cancelled: expect.any(String) },
    });
    expect(double.message(cancelled.id)?.state).toBe('Cancelled');
    expect((await harness.api.get(`/messages/${cancelled.id}`)).status).toBe(404);
    expect(sentTo('+447700900801')).toHaveLength(0);
  });

  it('cancels a message it holds unsent when the server pushes MessageCancelled', async () => {
    // The server keeps it Pending (its PATCH fails), so it can still cancel it.
    double.setRouteAvailable('PATCH /message', false);
    harness.gateway.setSendingPaused(true);
    const message = double.enqueue({ text: 'held', phoneNumbers: ['+447700900811'] });
    await waitForLocalState(message.id, 'Pending');

    double.cancel(message.id);
    await waitForLocalState(message.id, 'Cancelled');
    double.setRouteAvailable('PATCH /message', true);
    harness.gateway.setSendingPaused(false);
    // Any answer of the server sends the waiting reports at once, not at the next retry.
    double.enqueue({ text: 'nudge', phoneNumbers: ['+447700900812'] });
    await waitForReport(double, message.id, 'Cancelled');

    // In that order; a fetch answered before the report landed lists it Cancelling again, and
    // the gateway then reports Cancelled once more (the server takes it as the same state).
    expect([...new Set(reportedStates(double, message.id))]).toEqual(['Pending', 'Cancelled']);
    expect(reportsFor(double, message.id).at(-1)?.recipients).toEqual([
      { phoneNumber: '+447700900811', state: 'Cancelled' },
    ]);
    expect(double.message(message.id)?.state).toBe('Cancelled');
    expect(sentTo('+447700900811')).toHaveLength(0);
  });

  it('cancels a held message the next fetch lists as Cancelling when the push was missed', async () => {
    double.setRouteAvailable('PATCH /message', false);
    harness.gateway.setSendingPaused(true);
    const message = double.enqueue({ text: 'held, push lost', phoneNumbers: ['+447700900821'] });
    await waitForLocalState(message.id, 'Pending');

    double.cancel(message.id, { silent: true });
    double.enqueue({ text: 'nudge 1', phoneNumbers: ['+447700900822'] });
    await waitForLocalState(message.id, 'Cancelled');
    double.setRouteAvailable('PATCH /message', true);
    harness.gateway.setSendingPaused(false);
    double.enqueue({ text: 'nudge 2', phoneNumbers: ['+447700900823'] });
    await waitForReport(double, message.id, 'Cancelled');

    expect(double.message(message.id)?.state).toBe('Cancelled');
    expect(sentTo('+447700900821')).toHaveLength(0);
  });

  it('reports a message cancelled through the gateway API as Cancelled, not Failed', async () => {
    harness.gateway.setSendingPaused(true);
    const message = double.enqueue({ text: 'cancelled here', phoneNumbers: ['+447700900831'] });
    await waitForReport(double, message.id, 'Pending');

    const cancel = await harness.api.request<ApiMessage>('DELETE', `/messages/${message.id}`);
    expect(cancel.status).toBe(200);
    await waitForReport(double, message.id, 'Cancelled');

    expect(reportedStates(double, message.id)).toEqual(['Pending', 'Cancelled']);
    const report = reportsFor(double, message.id).at(-1);
    expect(report?.recipients).toEqual([{ phoneNumber: '+447700900831', state: 'Cancelled' }]);
    expect(Object.keys(report?.states ?? {})).toEqual(expect.arrayContaining(['Pending', 'Cancelled']));
    expect(double.message(message.id)?.state).toBe('Cancelled');
    expect(await localState(message.id)).toBe('Cancelled');
  });
});
