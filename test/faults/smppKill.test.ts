/**
 * kill -9 of the gateway during an SMPP submit burst (issue 42): every submit_sm answered with
 * ESME_ROK names a message that is in the store after the crash. The answer goes out only after
 * the commit, so a kill can cost a submit its answer (the client sends it again) but never an
 * acknowledged message.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonHeaders } from '../../bench/support/gatewayApi.js';
import {
  benchPassword,
  benchUsername,
  freeLoopbackPort,
  type GatewayProcess,
  startGatewayProcess,
} from '../../bench/support/gatewayProcess.js';
import { startPtyModemFleet } from '../../bench/support/ptyModems.js';
import { systemClock } from '../../server/clock/clock.js';
import type { HeldParts } from '../../server/doors/smpp/smppSubmissions.js';
import { createLogger } from '../../server/logging/logger.js';
import { openStorage } from '../../server/store/storage.js';
import { connectSmpp } from '../smpp/support/smppClient.js';
import { portAnswers } from '../support/portAnswers.js';
import { scaled } from './support/scale.js';
import { seededRandom } from './support/seededRandom.js';
import { readStoredMessages } from './support/storeSnapshot.js';
import { waitFor } from './support/waitFor.js';

const kills = scaled(3, 20);
const submitters = 4;

describe('kill -9 of the gateway during an SMPP submit burst', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it(
    'keeps every message whose submit_sm was answered ESME_ROK',
    async () => {
      const random = seededRandom();
      console.info(`SMPP kill seed ${random.seed} (FAULTS_SEED=${random.seed} replays it)`);
      const fleet = await startPtyModemFleet(1);
      cleanups.push(() => fleet.close());
      const dataDir = await mkdtemp(join(tmpdir(), 'sms-faults-smpp-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const smppPort = await freeLoopbackPort();
      const acknowledged = new Set<string>();
      /** First parts answered ESME_ROK, by the id of their message. */
      const acknowledgedParts = new Map<string, number>();
      let nextText = 0;
      let nextReference = 1;

      for (let round = 0; round <= kills; round++) {
        const gateway: GatewayProcess = await startGatewayProcess({ dataDir, modems: fleet.paths });
        if (round === 0) {
          const enabled = await fetch(`${gateway.url}/settings`, {
            method: 'PATCH',
            headers: jsonHeaders,
            body: JSON.stringify({ smpp: { enabled: true, port: smppPort } }),
          });
          expect(enabled.status).toBe(200);
        }
        await waitFor('the SMPP server', () => portAnswers(smppPort), 60_000, 50);
        const client = await connectSmpp(smppPort);
        const bound = await client.request('bind_transceiver', {
          system_id: benchUsername,
          password: benchPassword,
        });
        expect(bound?.command_status).toBe(0);

        let killed = false;
        const submit = async () => {
          while (!killed) {
            const text = `smpp crash test ${nextText++}`;
            const response = await client.request('submit_sm', {
              destination_addr: '447700900123',
              dest_addr_ton: 1,
              data_coding: 1,
              short_message: Buffer.from(text, 'ascii'),
            });
            if (!response) return;
            if (response.command_status === 0) acknowledged.add(String(response.message_id));
          }
        };
        // Two-part messages by SAR TLVs: an acknowledged first part is a promise too.
        const submitParts = async () => {
          while (!killed) {
            const reference = nextReference++ & 0xffff;
            for (const sequence of [1, 2]) {
              const response = await client.request('submit_sm', {
                destination_addr: '447700900124',
                dest_addr_ton: 1,
                data_coding: 1,
                short_message: Buffer.from(`part ${sequence} of ${reference} `, 'ascii'),
                sar_msg_ref_num: reference,
                sar_total_segments: 2,
                sar_segment_seqnum: sequence,
              });
              if (!response) return;
              if (response.command_status !== 0) break;
              const id = String(response.message_id);
              if (sequence === 2) acknowledged.add(id);
              else acknowledgedParts.set(id, reference);
            }
          }
        };
        const burst = Promise.all([...Array.from({ length: submitters }, submit), submitParts()]);
        if (round < kills) {
          await new Promise((resolve) => setTimeout(resolve, random.int(50, 1_500)));
          await gateway.kill('SIGKILL');
          killed = true;
          await burst;
        } else {
          await new Promise((resolve) => setTimeout(resolve, 300));
          killed = true;
          await burst;
          await client.request('unbind');
          await gateway.stop();
        }
        client.destroy();
      }

      const stored = await readStoredMessages(dataDir);
      expect(acknowledged.size).toBeGreaterThan(0);
      const lost = [...acknowledged].filter((id) => !stored.has(id));
      expect(lost, `${lost.length} of ${acknowledged.size} acknowledged messages lost`).toEqual([]);
      // A first part whose second never came (a kill took its answer) waits among the held parts.
      const held = await readHeldParts(dataDir);
      const lostParts = [...acknowledgedParts.keys()].filter((id) => !stored.has(id) && !held.has(id));
      expect(lostParts, `${lostParts.length} of ${acknowledgedParts.size} acknowledged parts lost`).toEqual(
        [],
      );
      console.info(
        `SMPP kill: ${acknowledged.size} messages and ${acknowledgedParts.size} first parts acknowledged over ${kills} kills, none lost`,
      );
    },
    scaled(180_000, 1_800_000),
  );
});

/** The message ids of the parts a STOPPED gateway holds for messages not yet whole. */
async function readHeldParts(dataDir: string): Promise<Set<string>> {
  const storage = await openStorage({
    dataDir,
    clock: systemClock,
    logger: createLogger({ level: 'ERROR', sinks: [] }),
  });
  try {
    return new Set(
      [...storage.openCollection<HeldParts>('smpp-held-parts').values()].map((held) => held.messageId),
    );
  } finally {
    await storage.close();
  }
}
