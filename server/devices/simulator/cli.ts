/**
 * Runs simulated modems on pseudo-terminals until Ctrl-C, for trying the gateway without
 * hardware:
 *
 *   npx tsx server/devices/simulator/cli.ts [--count N] [--dir <folder>] [--pin <pin>] [--log-level debug]
 *
 * and then, in another terminal, start the gateway with `--modem <printed path>`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from '../../clock/clock.js';
import { parseLogLevel } from '../../contract/domain/logLevels.js';
import { describeError } from '../../errors/gatewayError.js';
import { consoleSink, createLogger } from '../../logging/logger.js';
import { type PtyModem, startPtyModem } from './ptyModem.js';

const MAX_MODEMS = 16;
/** Nobody reads the history of a CLI modem; keep enough to debug with, not days of it. */
const HISTORY_LIMIT = 1000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '1' },
      dir: { type: 'string' },
      pin: { type: 'string' },
      'log-level': { type: 'string', default: 'info' },
    },
  });
  const count = Number(values.count);
  const level = parseLogLevel(values['log-level'] ?? 'info');
  if (!Number.isInteger(count) || count < 1 || count > MAX_MODEMS || level === undefined) {
    process.stderr.write(
      `usage: cli.ts [--count 1..${MAX_MODEMS}] [--dir <folder>] [--pin <pin>] [--log-level debug|info|warn|error]\n`,
    );
    process.exitCode = 2;
    return;
  }
  const logger = createLogger({ level, sinks: [consoleSink()] });
  const modems: PtyModem[] = [];
  // One folder holds every link, so the paths read sim0, sim1… side by side.
  const ownedDirectory = values.dir === undefined ? await mkdtemp(join(tmpdir(), 'sms-sim-')) : undefined;
  const closeAll = async () => {
    await Promise.all(modems.splice(0).map((modem) => modem.close()));
    if (ownedDirectory !== undefined) await rm(ownedDirectory, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < count; index++) {
      const modem = await startPtyModem({
        clock: systemClock,
        logger,
        directory: values.dir ?? ownedDirectory,
        name: `sim${index}`,
        modem: {
          simPin: values.pin,
          historyLimit: HISTORY_LIMIT,
          identity: { imei: imeiFor(index), ownNumber: `+4477009000${String(index + 1).padStart(2, '0')}` },
        },
      });
      modems.push(modem);
      process.stdout.write(`${modem.path}\n`);
    }
  } catch (error) {
    process.stderr.write(`cannot start the simulated modems: ${describeError(error)}\n`);
    await closeAll();
    process.exitCode = 1;
    return;
  }
  process.stderr.write(`Start the gateway with --modem <path> for each path above. Ctrl-C stops.\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await closeAll();
}

/** Distinct, Luhn-valid IMEIs (TS 23.003 §6.2.1 check digit) so the gateway sees separate devices. */
function imeiFor(index: number): string {
  const body = `49015420323${String(index).padStart(3, '0')}`;
  let sum = 0;
  for (const [position, char] of [...body].entries()) {
    const digit = Number(char) * (position % 2 === 1 ? 2 : 1);
    sum += digit > 9 ? digit - 9 : digit;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

await main();
