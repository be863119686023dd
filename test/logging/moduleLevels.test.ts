import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultOptions } from '../../server/config/options.js';
import { createGateway, type Gateway } from '../../server/index.js';
import { createLogger, type LogRecord, levelOfModule } from '../../server/logging/logger.js';

describe('levels per module', () => {
  it('gives a module the level of the longest name that covers it, and the rest the default', () => {
    const options = {
      level: 'WARN' as const,
      moduleLevels: { at: 'DEBUG' as const, 'at:/dev/ttyUSB1': 'ERROR' as const },
    };
    expect(levelOfModule(options, 'at:/dev/ttyUSB0')).toBe('DEBUG');
    expect(levelOfModule(options, 'at:/dev/ttyUSB1')).toBe('ERROR');
    expect(levelOfModule(options, 'attic')).toBe('WARN');
    expect(levelOfModule(options, 'scheduler')).toBe('WARN');
  });

  it('lets a child log below the parent level when its own level says so', () => {
    const records: LogRecord[] = [];
    const root = createLogger({
      level: 'WARN',
      moduleLevels: { scheduler: 'DEBUG' },
      sinks: [(r) => records.push(r)],
    });
    root.child('scheduler').debug('planned');
    root.child('http').debug('dropped');
    root.child('http').warn('kept');
    expect(records.map((record) => `${record.module} ${record.message}`)).toEqual([
      'scheduler planned',
      'http kept',
    ]);
  });
});

describe('a gateway started with --log-level WARN,at=DEBUG', () => {
  let gateway: Gateway | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    await gateway?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('logs the AT lines of each port under a name with the port, and nothing else below WARN', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'smsgw-levels-'));
    const records: LogRecord[] = [];
    gateway = createGateway(
      {
        ...defaultOptions(),
        listen: { host: '127.0.0.1', port: 0 },
        dataDir,
        simulatedModems: 1,
        probeSerialPorts: false,
        logLevel: 'WARN',
        moduleLogLevels: { at: 'DEBUG' },
      },
      { logSinks: [(record) => records.push(record)] },
    );
    await gateway.start();
    await vi.waitFor(() => expect(records.some((record) => record.module === 'at:simulated:1')).toBe(true));
    const below = records.filter((record) => record.priority === 'DEBUG' || record.priority === 'INFO');
    expect(below.length).toBeGreaterThan(0);
    expect(below.filter((record) => record.module !== 'at:simulated:1')).toEqual([]);
  });
});
