import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countByState, getMessage, postMessage } from '../../bench/support/gatewayApi.js';
import {
  basicAuthorization,
  type GatewayProcess,
  startGatewayProcess,
} from '../../bench/support/gatewayProcess.js';
import { systemClock } from '../../server/clock/clock.js';
import { type PtyModem, startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import { createLogger } from '../../server/logging/logger.js';
import { scaled } from './support/scale.js';
import { waitFor } from './support/waitFor.js';

/** How long each fault lasts: seconds in `npm test`, minutes under `npm run test:faults`. */
const faultMs = scaled(1_500, 120_000);
const recoveryTimeoutMs = scaled(45_000, 300_000);
const batch = 5;

describe('a modem that misbehaves for a while', () => {
  let directory: string;
  let modem: PtyModem;
  let gateway: GatewayProcess;

  const plugIn = () =>
    startPtyModem({
      clock: systemClock,
      logger: createLogger({ level: 'ERROR', sinks: [] }),
      directory,
      name: 'usb-modem',
    });

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'sms-faults-modem-'));
    modem = await plugIn();
    gateway = await startGatewayProcess({ dataDir: join(directory, 'data'), modems: [modem.path] });
    await waitForModemReady();
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await modem?.close();
    await rm(directory, { recursive: true, force: true });
  });

  async function waitForModemReady(): Promise<void> {
    await waitFor(
      'the modem to be ready',
      async () => {
        const response = await fetch(`${gateway.url}/devices`, {
          headers: { authorization: basicAuthorization },
        });
        const devices = (await response.json()) as { modem: { status: string } }[];
        return devices.some((device) => device.modem.status === 'ready');
      },
      recoveryTimeoutMs,
      100,
    );
  }

  async function postBatch(label: string): Promise<string[]> {
    const ids: string[] = [];
    for (let index = 0; index < batch; index++) {
      const posted = await postMessage(gateway.url, `${label} ${index}`, { withDeliveryReport: false });
      expect(posted.status).toBe(202);
      if (posted.id !== undefined) ids.push(posted.id);
    }
    return ids;
  }

  async function waitForDrain(): Promise<void> {
    await waitFor(
      'the queue to drain',
      async () =>
        (await countByState(gateway.url, 'Pending')) + (await countByState(gateway.url, 'Processed')) === 0,
      recoveryTimeoutMs,
      100,
    );
  }

  async function statesOf(ids: readonly string[]): Promise<string[]> {
    return Promise.all(ids.map(async (id) => (await getMessage(gateway.url, id))?.state ?? 'missing'));
  }

  /** After any fault: a fresh batch goes out, so the gateway found its way back by itself. */
  async function expectSendingWorks(label: string): Promise<void> {
    await waitForModemReady();
    const before = modem.modem.accepted.length;
    const ids = await postBatch(`${label}, after recovery`);
    await waitForDrain();
    expect(await statesOf(ids)).toEqual(ids.map(() => 'Sent'));
    expect(modem.modem.accepted.length - before).toBe(batch);
  }

  it(
    'sends what was queued while the modem was unplugged once it is plugged back in',
    async () => {
      await modem.close();
      const ids = await postBatch('while unplugged');
      await new Promise((resolve) => setTimeout(resolve, faultMs));
      expect(await countByState(gateway.url, 'Sent')).toBe(0);
      modem = await plugIn();
      await waitForDrain();
      expect(await statesOf(ids)).toEqual(ids.map(() => 'Sent'));
      await expectSendingWorks('unplug');
    },
    recoveryTimeoutMs * 3,
  );

  it(
    'recovers from a modem that stops answering',
    async () => {
      modem.modem.setSilent(true);
      const ids = await postBatch('while silent');
      await new Promise((resolve) => setTimeout(resolve, faultMs));
      modem.modem.setSilent(false);
      await waitForDrain();
      // A send cut off by the silence may have left: it fails as "may have been sent", never repeats.
      for (const state of await statesOf(ids)) expect(['Sent', 'Failed']).toContain(state);
      await expectSendingWorks('silence');
    },
    recoveryTimeoutMs * 3,
  );

  it(
    'recovers from a modem that answers garbage',
    async () => {
      modem.modem.setGarbage(true);
      const ids = await postBatch('while garbled');
      await new Promise((resolve) => setTimeout(resolve, faultMs));
      modem.modem.setGarbage(false);
      await waitForDrain();
      for (const state of await statesOf(ids)) expect(['Sent', 'Failed']).toContain(state);
      await expectSendingWorks('garbage');
    },
    recoveryTimeoutMs * 3,
  );

  it(
    'fails the messages the network refuses with +CMS ERROR and sends the next ones',
    async () => {
      // TS 27.005 §3.2.5 code 38: network out of order.
      modem.modem.failSends(38);
      const ids = await postBatch('while refused');
      await waitForDrain();
      const refused = await Promise.all(ids.map((id) => getMessage(gateway.url, id)));
      for (const message of refused) {
        expect(message?.state).toBe('Failed');
        expect(message?.recipients[0]?.error).toMatch(/CMS ERROR/);
      }
      await new Promise((resolve) => setTimeout(resolve, faultMs));
      modem.modem.clearFailures();
      await expectSendingWorks('+CMS ERROR');
    },
    recoveryTimeoutMs * 3,
  );
});
