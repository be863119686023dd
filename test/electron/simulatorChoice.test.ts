import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withPreferences } from '../../electron/coreArguments.js';
import { parseCommandLine } from '../../server/config/commandLine.js';
import { defaultOptions } from '../../server/config/options.js';
import type { SerialAccess } from '../../server/devices/pool/serialModemSource.js';
import { createMemoryLink } from '../../server/devices/transport/memoryTransport.js';
import { createGateway, type Gateway } from '../../server/index.js';
import type { LogRecord } from '../../server/logging/logger.js';

/** A PC whose USB modem has not enumerated yet. */
const noSerialPorts: SerialAccess = {
  listPorts: async () => [],
  createTransport: () => createMemoryLink('none').host,
  probe: async () => false,
};

const running: Gateway[] = [];
const directories: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop()));
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the simulated modem in the desktop app', () => {
  it('is not started silently when no modem answers: messages wait and the log says why', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-sim-choice-'));
    directories.push(dataDir);
    const logs: LogRecord[] = [];
    const gateway = createGateway(
      { ...defaultOptions(), listen: { host: '127.0.0.1', port: 0 }, dataDir, simulatorFallback: false },
      { serial: noSerialPorts, logSinks: [(record) => logs.push(record)] },
    );
    running.push(gateway);
    const started = await gateway.start();
    expect(started.simulated).toBe(false);
    expect(gateway.simulatedModems).toHaveLength(0);
    expect(logs.some((log) => log.priority === 'WARN' && log.message.includes('wait in the queue'))).toBe(
      true,
    );
  });

  it('runs when the user chose it, as --simulate for the core', () => {
    const options = (args: string[]) => {
      const parsed = parseCommandLine(args, {});
      if (parsed.kind !== 'run') throw new Error('expected options');
      return parsed.options;
    };
    expect(options(withPreferences([], { listenPort: null, useSimulator: true })).simulatedModems).toBe(1);
    expect(options(withPreferences([], { listenPort: null, useSimulator: false })).simulatedModems).toBe(0);
    // A count given on the command line is kept, not doubled.
    const counted = withPreferences(['--simulate', '3'], { listenPort: null, useSimulator: true });
    expect(options(counted).simulatedModems).toBe(3);
  });
});
