import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countByState, jsonHeaders } from '../../bench/support/gatewayApi.js';
import {
  freeLoopbackPort,
  type GatewayProcess,
  startGatewayProcess,
} from '../../bench/support/gatewayProcess.js';
import { type PtyModemFleet, startPtyModemFleet } from '../../bench/support/ptyModems.js';
import { INTERRUPTED_ERROR } from '../../server/contract/domain/failureTexts.js';
import { type HookServer, listenForHooks } from './support/hookServer.js';
import { scaled } from './support/scale.js';
import { seededRandom } from './support/seededRandom.js';
import { readStoredMessages } from './support/storeSnapshot.js';
import { waitFor } from './support/waitFor.js';

const totalMessages = scaled(500, 10_000);
const kills = scaled(3, 20);
const posters = 8;

describe('kill -9 of the gateway during a load', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it(
    'keeps every accepted message and its webhook, sends none twice and fails the interrupted ones as "may have been sent"',
    async () => {
      const random = seededRandom();
      console.info(`crash recovery seed ${random.seed} (FAULTS_SEED=${random.seed} replays it)`);
      const fleet: PtyModemFleet = await startPtyModemFleet(1);
      cleanups.push(() => fleet.close());
      const dataDir = await mkdtemp(join(tmpdir(), 'sms-faults-crash-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const start = () => startGatewayProcess({ dataDir, modems: fleet.paths });
      // Every fact (a message reaching Sent, or Failed) must reach this receiver, whatever the kills.
      const hooks: HookServer = await listenForHooks(await freeLoopbackPort());
      cleanups.push(() => hooks.close());
      let registered = false;

      const accepted = new Map<string, string>();
      let nextText = 0;
      let gateway: GatewayProcess | undefined;
      for (let round = 0; round <= kills; round++) {
        gateway = await start();
        const running = gateway;
        if (!registered) {
          await registerWebhooks(running.url, hooks.url);
          registered = true;
        }
        const target = Math.min(totalMessages, Math.round((totalMessages * (round + 1)) / (kills + 1)));
        let killed = false;
        const post = async () => {
          while (!killed && accepted.size < target) {
            const text = `crash test message ${nextText++}`;
            try {
              const response = await fetch(`${running.url}/messages`, {
                method: 'POST',
                headers: jsonHeaders,
                body: JSON.stringify({ textMessage: { text }, phoneNumbers: ['+447700900123'] }),
              });
              const body = (await response.json()) as { id?: string };
              if (response.status === 202 && body.id !== undefined) accepted.set(body.id, text);
            } catch {
              // The gateway died under this request: no 202, so no promise was made.
            }
          }
        };
        const load = Promise.all(Array.from({ length: posters }, post));
        if (round < kills) {
          // Somewhere in the posting or in the drain behind it (one zero-delay modem drains fast).
          await new Promise((resolve) => setTimeout(resolve, random.int(50, 1_500)));
          killed = true;
          await running.kill('SIGKILL');
        }
        await load;
      }
      const last = gateway as GatewayProcess;
      cleanups.push(() => last.stop());
      await waitForDrain(last, fleet);
      await last.stop();

      const stored = await readStoredMessages(dataDir);
      const pdusPerText = new Map<string, number>();
      for (const pdu of fleet.modems[0]?.modem.accepted ?? []) {
        const text = pdu.decoded.text ?? '';
        pdusPerText.set(text, (pdusPerText.get(text) ?? 0) + 1);
      }
      const sentTwice = [...pdusPerText].filter(([, count]) => count > 1);
      expect(sentTwice).toEqual([]);

      // Posters already under way when the target is reached may add a few more.
      expect(accepted.size).toBeGreaterThanOrEqual(totalMessages);
      const missing = [...accepted.keys()].filter((id) => !stored.has(id));
      expect(missing).toEqual([]);

      let interrupted = 0;
      for (const [id, text] of accepted) {
        const record = stored.get(id);
        const recipient = record?.recipients[0];
        const pdus = pdusPerText.get(text) ?? 0;
        if (record?.state === 'Failed') {
          interrupted++;
          expect(recipient?.error, `message ${id}`).toBe(INTERRUPTED_ERROR);
          expect(recipient?.failure, `message ${id}`).toEqual({ code: 'interrupted' });
          expect(pdus).toBeLessThanOrEqual(1);
        } else {
          expect(['Sent', 'Delivered'], `message ${id} state`).toContain(record?.state);
          expect(pdus, `PDUs of message ${id}`).toBe(1);
        }
      }
      // One modem has at most one message at the modem when the process dies.
      expect(interrupted).toBeLessThanOrEqual(kills);

      // The webhook of every fact, including those committed just before a kill.
      const expected = [...accepted.keys()].map(
        (id) => `${stored.get(id)?.state === 'Failed' ? 'sms:failed' : 'sms:sent'} ${id}`,
      );
      const announced = () => new Set(hooks.bodies.map(eventOf));
      const restarted = await start();
      cleanups.push(() => restarted.stop());
      try {
        await waitFor('every webhook', () => expected.every((fact) => announced().has(fact)), 60_000, 100);
      } catch {
        const seen = announced();
        const lost = expected.filter((fact) => !seen.has(fact));
        expect(lost, `${lost.length} of ${expected.length} facts without a webhook`).toEqual([]);
      }
      await restarted.stop();
    },
    scaled(120_000, 1_800_000),
  );
});

async function registerWebhooks(gatewayUrl: string, hookUrl: string): Promise<void> {
  for (const event of ['sms:sent', 'sms:failed']) {
    const response = await fetch(`${gatewayUrl}/webhooks`, {
      method: 'POST',
      headers: jsonHeaders,
      body: JSON.stringify({ url: hookUrl, event }),
    });
    expect(response.status).toBe(201);
  }
}

/** "sms:sent <messageId>" for one webhook body. */
function eventOf(body: unknown): string {
  const envelope = body as { event?: string; payload?: { messageId?: string } };
  return `${envelope.event} ${envelope.payload?.messageId}`;
}

async function waitForDrain(gateway: GatewayProcess, fleet: PtyModemFleet): Promise<void> {
  const inFlight = async () =>
    (await countByState(gateway.url, 'Pending')) + (await countByState(gateway.url, 'Processed'));
  try {
    await waitFor('the queue to drain', async () => (await inFlight()) === 0, scaled(60_000, 600_000), 200);
  } catch (error) {
    const commands = fleet.modems[0]?.modem.commands.slice(-10).join(' | ');
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}: ${await inFlight()} still in flight; ` +
        `last modem commands: ${commands}\n--- gateway output ---\n${gateway.output().slice(-4_000)}`,
    );
  }
}
