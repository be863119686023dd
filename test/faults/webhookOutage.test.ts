import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getMessage, jsonHeaders, postMessage } from '../../bench/support/gatewayApi.js';
import { freeLoopbackPort, startGatewayProcess } from '../../bench/support/gatewayProcess.js';
import { startPtyModemFleet } from '../../bench/support/ptyModems.js';
import { type HookServer, listenForHooks } from './support/hookServer.js';
import { scaled } from './support/scale.js';
import { waitFor } from './support/waitFor.js';

const outageMs = scaled(2_000, 180_000);
/** Retries back off 5 s, 10 s, 20 s…: the first after the outage lands within one more step. */
const arrivalTimeoutMs = scaled(30_000, 420_000);
const messages = 3;

describe('a webhook receiver that is down for a while', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it(
    'gets every event it missed once it is back',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'sms-faults-hooks-'));
      cleanups.push(() => rm(root, { recursive: true, force: true }));
      const fleet = await startPtyModemFleet(1);
      cleanups.push(() => fleet.close());
      const gateway = await startGatewayProcess({ dataDir: join(root, 'data'), modems: fleet.paths });
      cleanups.push(() => gateway.stop());

      const port = await freeLoopbackPort();
      const registered = await fetch(`${gateway.url}/webhooks`, {
        method: 'POST',
        headers: jsonHeaders,
        body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, event: 'sms:sent' }),
      });
      expect(registered.status).toBe(201);
      const patched = await fetch(`${gateway.url}/settings`, {
        method: 'PATCH',
        headers: jsonHeaders,
        body: JSON.stringify({ webhooks: { retry_count: 30 } }),
      });
      expect(patched.status).toBe(200);

      const ids: string[] = [];
      for (let index = 0; index < messages; index++) {
        const posted = await postMessage(gateway.url, `webhook outage ${index}`, {
          withDeliveryReport: false,
        });
        if (posted.id !== undefined) ids.push(posted.id);
      }
      await waitFor(
        'the messages to be sent',
        async () =>
          (await Promise.all(ids.map((id) => getMessage(gateway.url, id)))).every((m) => m?.state === 'Sent'),
        30_000,
      );
      // Nobody listens on the port: every attempt so far was refused.
      await new Promise((resolve) => setTimeout(resolve, outageMs));

      const receiver: HookServer = await listenForHooks(port);
      cleanups.push(() => receiver.close());
      const deliveredIds = () =>
        new Set(
          receiver.bodies.map((body) => (body as { payload?: { messageId?: string } }).payload?.messageId),
        );
      await waitFor(
        'the held events to arrive',
        () => ids.every((id) => deliveredIds().has(id)),
        arrivalTimeoutMs,
        100,
      );
      for (const body of receiver.bodies) expect(body).toMatchObject({ event: 'sms:sent' });
    },
    scaled(90_000, 900_000),
  );
});
