/**
 * Fleet mode across a crash: the gateway runs as its own process (the real CLI with
 * --server-url and --server-token) on a pty modem, takes messages from the contract double of
 * the private server's device API (test/support/fleetServerDouble.ts — the Go server cannot be
 * built here), and is killed with SIGKILL mid-run. After a restart on the same data directory:
 * no SMS went out twice, every message of the server reached a final state there, and the
 * states not reported before the kill were reported after it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { INTERRUPTED_ERROR } from '../../server/contract/domain/failureTexts.js';
import { type PtyModem, startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import type { LogRecord } from '../../server/logging/logger.js';
import { type ChildGateway, freePort, startChildGateway } from '../integration/support/childGateway.js';
import {
  type DoubleMessage,
  type FleetServerDouble,
  startFleetServerDouble,
} from '../support/fleetServerDouble.js';
import { collectingLogger } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { reportedStates, reportsFor } from './support/fleetReads.js';

const messageCount = 20;
const rank = ['Pending', 'Processed', 'Sent', 'Delivered', 'Failed'];

describe('a fleet gateway killed with SIGKILL mid-run', () => {
  const logs: LogRecord[] = [];
  let double: FleetServerDouble;
  let dataDir: string;
  let ptyDirectory: string;
  let modem: PtyModem | undefined;
  let gateway: ChildGateway | undefined;
  const messages: DoubleMessage[] = [];
  let reportsBeforeKill = 0;

  beforeAll(async () => {
    double = await startFleetServerDouble();
    dataDir = await mkdtemp(join(tmpdir(), 'smsgw-fleet-kill-data-'));
    ptyDirectory = await mkdtemp(join(tmpdir(), 'smsgw-fleet-kill-pty-'));
    modem = await startPtyModem({
      clock: systemClock,
      logger: collectingLogger(logs),
      directory: ptyDirectory,
      name: 'modem',
      modem: { sendDelayMs: 150, statusReportDelayMs: 100 },
    });
    const options = {
      dataDir,
      modemPath: modem.path,
      port: await freePort(),
      extraArgs: ['--server-url', double.baseUrl, '--server-token', double.serverKey],
    };
    gateway = await startChildGateway(options);
    await pollUntil(
      () => double.devices.length === 1 && double.openStreams(double.devices[0]?.id ?? '') === 1,
      {
        what: 'the gateway listening to the server',
        limitMs: 30_000,
      },
    );
    for (let index = 0; index < messageCount; index++) {
      messages.push(double.enqueue({ text: `crash ${index}`, phoneNumbers: [phoneOf(index)] }));
    }
    await pollUntil(
      () => messages.filter((message) => reportedStates(double, message.id).includes('Sent')).length >= 3,
      {
        what: 'a few Sent reports',
        limitMs: 30_000,
      },
    );
    await gateway.kill();
    reportsBeforeKill = double.patches.length;
    gateway = await startChildGateway(options);
    await pollUntil(
      () =>
        messages.every((message) =>
          ['Delivered', 'Failed'].includes(double.message(message.id)?.state ?? ''),
        ),
      { what: 'every message final on the server', limitMs: 60_000 },
    );
  }, 150_000);

  afterAll(async () => {
    await gateway?.stop();
    await modem?.close();
    await double?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (ptyDirectory) await rm(ptyDirectory, { recursive: true, force: true });
  });

  it('was killed with messages still to send or report', () => {
    const finalBeforeKill = messages.filter((message) =>
      double.patches
        .slice(0, reportsBeforeKill)
        .some((patch) => patch.item.id === message.id && ['Delivered', 'Failed'].includes(patch.item.state)),
    );
    expect(finalBeforeKill.length).toBeLessThan(messageCount);
  });

  it('sent no SMS twice, and every message the server saw Sent or Delivered went out once', () => {
    const accepted = modem?.modem.accepted ?? [];
    for (const [index, message] of messages.entries()) {
      const pdus = accepted.filter((pdu) => pdu.decoded.recipient.number === phoneOf(index));
      expect(pdus.length, message.id).toBeLessThanOrEqual(1);
      if (double.message(message.id)?.state === 'Delivered') expect(pdus.length, message.id).toBe(1);
    }
  });

  it('lost no message: each is Delivered, or Failed as interrupted by the kill', () => {
    for (const message of messages) {
      const held = double.message(message.id);
      if (held?.state === 'Failed') expect(held.recipients[0]?.error).toBe(INTERRUPTED_ERROR);
      else expect(held?.state).toBe('Delivered');
    }
    expect(
      messages.filter((message) => double.message(message.id)?.state === 'Failed').length,
    ).toBeLessThanOrEqual(1);
  });

  it('reported after the restart what it had not reported before, never going back a state', () => {
    expect(double.patches.length).toBeGreaterThan(reportsBeforeKill);
    for (const message of messages) {
      const ranks = reportsFor(double, message.id).map((report) => rank.indexOf(report.state));
      expect(ranks, message.id).toEqual([...ranks].sort((a, b) => a - b));
    }
  });

  it('kept its registration: one device on the server', () => {
    expect(double.devices).toHaveLength(1);
  });
});

function phoneOf(index: number): string {
  return `+4477009004${String(index).padStart(2, '0')}`;
}
