import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';

/**
 * The scheduler and the kept relay link (+CMMS, TS 27.005 §3.5.6) end to end: the whole gateway,
 * a simulated modem behind a pty whose link costs a set-up when closed and is held after each
 * send for the longest (5 s) or the shortest (1 s) time §3.5.6 allows. Messages queued together
 * go out on one link; a configured pause between sends longer than the hold lets it close, and
 * still applies.
 */
const harnesses: GatewayHarness[] = [];

afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function gatewayWithQueue(
  holdMs: number,
  pauseSeconds: number,
  messages: number,
): Promise<GatewayHarness> {
  const harness = await startGatewayHarness({
    ptyModems: 1,
    ptyModemOptions: () => ({ sendDelayMs: 5, relayLink: { setupMs: 50, holdMs } }),
  });
  harnesses.push(harness);
  await pollUntil(
    async () => {
      const devices = await harness.api.get<{ modem: { status: string } }[]>('/devices');
      return devices.body[0]?.modem.status === 'ready';
    },
    { limitMs: 20_000, what: 'the modem to be ready' },
  );
  const settings = await harness.api.patch('/settings', {
    messages: { send_interval_min: pauseSeconds, send_interval_max: pauseSeconds },
  });
  expect(settings.status).toBe(200);
  harness.gateway.setSendingPaused(true);
  for (let index = 0; index < messages; index++) {
    const posted = await harness.api.post('/messages', {
      textMessage: { text: `queued ${index}` },
      phoneNumbers: ['+15550001111'],
      withDeliveryReport: false,
    });
    expect(posted.status).toBe(202);
  }
  harness.gateway.setSendingPaused(false);
  await pollUntil(() => harness.acceptedBy(0).length === messages, {
    limitMs: 30_000,
    what: `${messages} sends`,
  });
  return harness;
}

describe('messages queued for one modem and the kept relay link', () => {
  it('hands each next message over while the link is still open', async () => {
    const harness = await gatewayWithQueue(5_000, 0, 4);
    expect(harness.ptyModem(0).relayLinkCounts).toEqual({ setups: 1, keptOpen: 3 });
  });

  it('keeps a configured pause between sends, though the link closes in it', async () => {
    const harness = await gatewayWithQueue(1_000, 2, 2);
    const [first, second] = harness.acceptedBy(0);
    expect((second?.acceptedAt ?? 0) - (first?.acceptedAt ?? 0)).toBeGreaterThanOrEqual(2_000);
    expect(harness.ptyModem(0).relayLinkCounts).toEqual({ setups: 2, keptOpen: 0 });
  });
});
