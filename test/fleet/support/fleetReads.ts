import { expect } from 'vitest';
import type { FleetStatus } from '../../../server/doors/fleet/fleetMode.js';
import type { FleetServerDouble, ReceivedPatch } from '../../support/fleetServerDouble.js';
import type { GatewayApi } from '../../support/gatewayHarness.js';
import { pollUntil } from '../../support/pollUntil.js';

export async function fleetStatusOf(api: GatewayApi): Promise<FleetStatus> {
  const response = await api.get<{ fleet: FleetStatus }>('/gateway/v1/status');
  expect(response.status).toBe(200);
  return response.body.fleet;
}

export async function waitForFleetState(
  api: GatewayApi,
  state: string,
  limitMs = 15_000,
): Promise<FleetStatus> {
  let last: FleetStatus | undefined;
  await pollUntil(
    async () => {
      last = await fleetStatusOf(api);
      return last.enabled && last.state === state;
    },
    { what: `fleet state ${state} (last: ${JSON.stringify(last)})`, limitMs },
  );
  if (!last) throw new Error('no status');
  return last;
}

/** The reports the double received for one message, in arrival order. */
export function reportsFor(double: FleetServerDouble, id: string): ReceivedPatch['item'][] {
  return double.patches.filter((patch) => patch.item.id === id).map((patch) => patch.item);
}

export function reportedStates(double: FleetServerDouble, id: string): string[] {
  return reportsFor(double, id).map((item) => item.state);
}

/** Waits until the double holds a report of `state` for message `id`. */
export function waitForReport(
  double: FleetServerDouble,
  id: string,
  state: string,
  limitMs = 20_000,
): Promise<void> {
  return pollUntil(() => reportedStates(double, id).includes(state), {
    what: `a ${state} report of ${id} (so far: ${reportedStates(double, id).join(', ')})`,
    limitMs,
  });
}

/** A message's life as a device reports it: Pending (taken), Processed, Sent, then a final state. */
const order = ['Pending', 'Processed', 'Sent', 'Delivered', 'Failed'];

/**
 * The states of a message the server fetched again while its reports were on their way: the
 * gateway reports the current state once more (as the app's `GatewayService.processMessage`
 * does; the fetch may have been answered before the last report landed), never an earlier one.
 */
export function expectOrderedWithRepeats(states: readonly string[]): void {
  const ranks = states.map((state) => order.indexOf(state));
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
}

/** Every state reported once, never going back. */
export function expectOrderedOnce(states: readonly string[]): void {
  expect(new Set(states).size).toBe(states.length);
  const ranks = states.map((state) => order.indexOf(state));
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
}
