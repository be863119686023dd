import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { AtSession } from '../../server/devices/at/atSession.js';
import { ModemDriver } from '../../server/devices/modem/modemDriver.js';
import { SHORTEST_LINK_HOLD_MS } from '../../server/devices/modem/relayLinkKeeper.js';
import type { SendRequest } from '../../server/devices/pool/outboundModem.js';
import { type PtyModem, startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import type { MoreMessagesMode } from '../../server/devices/simulator/relayLink.js';
import { createSerialTransport } from '../../server/devices/transport/serialTransport.js';
import { silentLogger } from '../../server/logging/logger.js';
import { pollUntil } from '../support/pollUntil.js';

/**
 * `+CMMS` (TS 27.005 §3.5.6) in the send path, through the real serialport binding on a pty to
 * the simulated modem, whose relay link makes a send that finds it closed wait for its set-up
 * (`server/devices/simulator/relayLink.ts`). The simulator holds the link for the shortest time §3.5.6
 * allows, 1 s, so "idle" below is over a second of nothing.
 */
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const waitFor = (condition: () => boolean, what: string) => pollUntil(condition, { limitMs: 20_000, what });

async function driverWith(
  modes?: readonly MoreMessagesMode[],
): Promise<{ driver: ModemDriver; pty: PtyModem }> {
  const pty = await startPtyModem({
    clock: systemClock,
    logger: silentLogger,
    modem: {
      sendDelayMs: 5,
      relayLink: { setupMs: 50, holdMs: SHORTEST_LINK_HOLD_MS, ...(modes ? { modes } : {}) },
    },
  });
  cleanups.push(() => pty.close());
  const driver = new ModemDriver({
    source: { port: pty.path, openTransport: async () => createSerialTransport({ path: pty.path }) },
    createSession: (transport) => new AtSession(transport, { clock: systemClock, logger: silentLogger }),
    receive: async () => undefined,
    onDeliveryReport: async () => true,
    clock: systemClock,
    logger: silentLogger,
    timing: { healthIntervalMs: 60_000, pollIntervalMs: 60_000 },
  });
  cleanups.push(() => driver.stop());
  await driver.start();
  await waitFor(() => driver.status === 'ready', 'the modem to be ready');
  return { driver, pty };
}

function message(id: string, text: string): SendRequest {
  return {
    messageId: id,
    recipient: '+15551234567',
    content: { kind: 'text', text },
    simNumber: 1,
    requestStatusReport: false,
  };
}

const threeParts = 'x'.repeat(400);
const count = (pty: PtyModem, command: string) =>
  pty.modem.commands.filter((seen) => seen === command).length;

/** Waits until the modem closed its link and the gateway's shortest hold has passed too. */
async function idle(pty: PtyModem): Promise<void> {
  await waitFor(() => !pty.modem.relayLinkOpen, 'the relay link to close');
  // The gateway saw the last answer a moment after the modem sent it.
  const quietFrom = Date.now();
  await pollUntil(() => Date.now() - quietFrom > SHORTEST_LINK_HOLD_MS / 2, { limitMs: 5_000 });
}

describe('the relay link kept open with +CMMS', () => {
  it('sets mode 2 once and sends parts and the next message on the open link', async () => {
    const { driver, pty } = await driverWith();
    expect(count(pty, 'AT+CMMS=?')).toBe(1);
    expect(count(pty, 'AT+CMMS=2')).toBe(1);
    const sent = await driver.send(message('m1', threeParts));
    await driver.send(message('m2', 'right behind'));
    expect(sent.references).toHaveLength(3);
    expect(pty.modem.relayLinkCounts).toEqual({ setups: 1, keptOpen: 3 });
    expect(driver.details().relayLink).toEqual({ mode: 2, keptLinkSends: 3 });
    expect(count(pty, 'AT+CMMS=1')).toBe(0);
  });

  it('in mode 2, opens a link that closed while idle again without setting the mode again', async () => {
    const { driver, pty } = await driverWith();
    await driver.send(message('m1', 'first'));
    await idle(pty);
    await driver.send(message('m2', threeParts));
    expect(pty.modem.relayLinkCounts).toEqual({ setups: 2, keptOpen: 2 });
    expect(driver.details().relayLink).toEqual({ mode: 2, keptLinkSends: 2 });
    expect(count(pty, 'AT+CMMS=2')).toBe(1);
  });

  it('in mode 1, arms it before each batch, since the modem drops it with the link', async () => {
    const { driver, pty } = await driverWith([0, 1]);
    expect(count(pty, 'AT+CMMS=2')).toBe(0);
    await driver.send(message('m1', threeParts));
    expect(count(pty, 'AT+CMMS=1')).toBe(1);
    expect(pty.modem.relayLinkCounts).toEqual({ setups: 1, keptOpen: 2 });
    await idle(pty);
    // Mode 1 fell back to 0 with the link: without arming it again, every part would pay the set-up.
    await driver.send(message('m2', 'after a pause'));
    await driver.send(message('m3', threeParts));
    expect(count(pty, 'AT+CMMS=1')).toBe(2);
    expect(pty.modem.relayLinkCounts).toEqual({ setups: 2, keptOpen: 5 });
    expect(driver.details().relayLink).toEqual({ mode: 1, keptLinkSends: 5 });
  });

  it('sends as before through a modem that answers ERROR to AT+CMMS=?', async () => {
    const { driver, pty } = await driverWith([]);
    const sent = await driver.send(message('m1', threeParts));
    expect(sent.references).toHaveLength(3);
    expect(pty.modem.accepted).toHaveLength(3);
    expect(pty.modem.commands.filter((seen) => seen.startsWith('AT+CMMS'))).toEqual(['AT+CMMS=?']);
    expect(pty.modem.relayLinkCounts).toEqual({ setups: 3, keptOpen: 0 });
    expect(driver.details().relayLink).toBeUndefined();
  });
});
