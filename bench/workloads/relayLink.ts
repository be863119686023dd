import type { BenchSizes } from '../support/benchSizes.js';
import type { Datasets } from '../support/dataset.js';
import { postMessage, textOfParts } from '../support/gatewayApi.js';
import { type GatewayLaunch, startGatewayProcess } from '../support/gatewayProcess.js';
import { type FleetModemOptions, startPtyModemFleet } from '../support/ptyModems.js';
import { fixed, type Table } from '../support/table.js';
import { waitForOnlineModems, waitUntil } from './modemPath.js';

/**
 * Sending at the radio's pace: simulated modems whose relay link to the SMSC takes 2 s to open
 * and 0.5 s per send on an open link, held 3 s after each send under `+CMMS` 1 or 2
 * (`server/devices/simulator/relayLink.ts`), with the modem offering `+CMMS` and without it. Each row
 * beside its ideal: the link opened once, then every part at the send time.
 *
 * The burst and the single-modem campaign with `+CMMS` run in real modem time; the other rows
 * divide every modem time by their `timeScale`, so the campaign without `+CMMS` takes minutes
 * instead of 42, and report seconds back at full scale. The gateway's own time per message is
 * not scaled, so a scaled row's ratio to the ideal is if anything higher than it would be at
 * the real 0.5 s per send.
 */
const SETUP_MS = 2000;
const SEND_MS = 500;
const HOLD_MS = 3000;
const POST_CONCURRENCY = 16;

interface Workload {
  name: string;
  modems: number;
  /** The parts of each message, in posting order. */
  messages: readonly (1 | 3)[];
  withCmms: boolean;
  /** Every modem time divided by this (1: real time). */
  timeScale: number;
}

interface Measured {
  seconds: number;
  parts: number;
}

/** 10 three-part and 10 single messages, interleaved: the 40 parts of the measurement. */
const burst: readonly (1 | 3)[] = Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? 3 : 1));

export async function runRelayLinkWorkloads(
  sizes: BenchSizes,
  datasets: Datasets,
  launch: GatewayLaunch,
): Promise<Table> {
  const campaign: readonly 1[] = Array.from({ length: 1000 }, () => 1);
  const campaignName = '1,000-message campaign';
  const burstWith: Workload = {
    name: '40-part burst',
    modems: 1,
    messages: burst,
    withCmms: true,
    timeScale: 1,
  };
  const workloads: Workload[] = sizes.quick
    ? // The quick run only checks that the rows still work: one gateway, at a tenth of the time.
      [{ ...burstWith, timeScale: 10 }]
    : [
        burstWith,
        { ...burstWith, withCmms: false },
        { name: campaignName, modems: 1, messages: campaign, withCmms: true, timeScale: 1 },
        { name: campaignName, modems: 1, messages: campaign, withCmms: false, timeScale: 10 },
        // How modems add up; its twin without +CMMS would add minutes and nothing new.
        { name: campaignName, modems: 4, messages: campaign, withCmms: true, timeScale: 2 },
      ];
  const rows: string[][] = [];
  for (const workload of workloads) {
    const { timeScale } = workload;
    const measured = await measure(workload, sizes, datasets, launch);
    const ideal = idealSeconds(measured.parts, workload.modems) / timeScale;
    const modems = `${workload.modems} modem${workload.modems === 1 ? '' : 's'}`;
    rows.push([
      `${workload.name}, ${modems}, ${workload.withCmms ? 'with +CMMS (mode 2)' : 'without +CMMS'}`,
      fixed(measured.seconds * timeScale, 1),
      fixed(ideal * timeScale, 1),
      fixed(measured.seconds / ideal, 2),
      timeScale === 1 ? 'real' : `1/${timeScale}`,
      String(measured.parts),
    ]);
  }
  return {
    title: 'Sending at the radio pace: relay link kept with +CMMS (simulated modems on ptys)',
    headers: ['workload', 'seconds', 'ideal seconds', '× ideal', 'modem time', 'parts'],
    rows,
    notes: [
      `Modem model: link set-up ${SETUP_MS} ms, ${SEND_MS} ms per send on an open link, held ${HOLD_MS} ms ` +
        "after each send's answer. Modem time 1/n: the simulators ran every modem time n× shorter and the " +
        "seconds are given back at full scale (measured × n); the gateway's own time is not scaled.",
      'Ideal: the link opened once per modem, then every part at the send time, the parts shared evenly.',
      'Timed from the first POST to the last PDU accepted; messages posted ' +
        `${POST_CONCURRENCY} at a time, no delivery reports asked. Without +CMMS every part pays the set-up.`,
    ],
  };
}

function idealSeconds(parts: number, modems: number): number {
  return (SETUP_MS + Math.ceil(parts / modems) * SEND_MS) / 1000;
}

async function measure(
  workload: Workload,
  sizes: BenchSizes,
  datasets: Datasets,
  launch: GatewayLaunch,
): Promise<Measured> {
  const { timeScale } = workload;
  const modem: FleetModemOptions = {
    sendDelayMs: SEND_MS / timeScale,
    relayLink: {
      setupMs: SETUP_MS / timeScale,
      holdMs: HOLD_MS / timeScale,
      ...(workload.withCmms ? {} : { modes: [] }),
    },
  };
  const fleet = await startPtyModemFleet(workload.modems, modem);
  const gateway = await startGatewayProcess({
    dataDir: await datasets.empty(),
    modems: fleet.paths,
    ...launch,
  }).catch(async (error: unknown) => {
    await fleet.close();
    throw error;
  });
  try {
    await waitForOnlineModems(gateway, workload.modems);
    await new Promise((resolve) => setTimeout(resolve, sizes.settleMs));
    const parts = workload.messages.reduce<number>((sum, count) => sum + count, 0);
    const expected = fleet.acceptedCount() + parts;
    const startedAt = performance.now();
    let next = 0;
    const poster = async () => {
      while (next < workload.messages.length) {
        const count = workload.messages[next++] ?? 1;
        const posted = await postMessage(gateway.url, textOfParts(count), { withDeliveryReport: false });
        if (posted.status !== 202) throw new Error(`POST /messages answered ${posted.status}`);
      }
    };
    await Promise.all(Array.from({ length: POST_CONCURRENCY }, poster));
    const limitMs = 120_000 + (parts * (SETUP_MS + SEND_MS) * 2) / timeScale;
    await waitUntil(() => fleet.acceptedCount() >= expected, limitMs, 'every PDU to reach a modem');
    return { seconds: (performance.now() - startedAt) / 1000, parts };
  } finally {
    await gateway.stop();
    await fleet.close();
  }
}
