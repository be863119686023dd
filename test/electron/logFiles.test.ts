import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureDialog } from '../../electron/failureDialog.js';
import { RotatingLogFile } from '../../electron/rotatingLogFile.js';
import { consoleSink, createLogger } from '../../server/logging/logger.js';
import { supervisedCore } from './support/supervisedCore.js';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'smsgw-logs-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the desktop app’s log files', () => {
  it('starts a fresh file past the size and keeps only the newest few', async () => {
    const log = new RotatingLogFile(folder, 'desktop', { maxBytes: 1_000, keep: 2 });
    const line = (index: number) => `${String(index).padStart(4, '0')} ${'x'.repeat(95)}\n`;
    for (let index = 0; index < 100; index++) log.write(line(index));
    log.close();
    expect((await readdir(folder)).sort()).toEqual(['desktop.1.log', 'desktop.2.log', 'desktop.log']);
    for (const name of await readdir(folder)) {
      expect((await readFile(join(folder, name))).length).toBeLessThanOrEqual(1_000);
    }
    expect(await readFile(join(folder, 'desktop.log'), 'utf8')).toContain(line(99));
    expect(await readFile(join(folder, 'desktop.1.log'), 'utf8')).not.toContain(line(99));
    expect(log.lastLines(3).map((text) => text.slice(0, 4))).toEqual(['0097', '0098', '0099']);
  });

  it('reads the last lines across a fresh file, and none before the first write', () => {
    const log = new RotatingLogFile(folder, 'core', { maxBytes: 50, keep: 3 });
    expect(log.lastLines(5)).toEqual([]);
    for (const word of ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight']) {
      log.write(`line ${word} ${'.'.repeat(10)}\n`);
    }
    expect(log.lastLines(4).map((text) => text.split(' ')[1])).toEqual(['five', 'six', 'seven', 'eight']);
    log.close();
  });

  it('takes the shell’s logger lines through the one logger', async () => {
    const log = new RotatingLogFile(folder, 'desktop');
    const logger = createLogger({ level: 'INFO', sinks: [consoleSink(log)] }, 'desktop');
    logger.warn('the gateway core stopped', { code: 139 });
    log.close();
    expect(await readFile(log.path, 'utf8')).toMatch(
      /WARN {2}\[desktop\] the gateway core stopped \{"code":139\}\n$/,
    );
  });

  it('keeps what a core that dies while loading prints, and the failure window shows it with the file', async () => {
    const log = new RotatingLogFile(folder, 'core');
    const { electron, core } = supervisedCore({ output: (chunk) => log.write(chunk) });
    const failures: string[] = [];
    core.on('start-failed', (failure) => failures.push(failure.message));
    core.start();
    const child = electron.children[0];
    if (!child) throw new Error('no core');
    child.stdout.write('2026-01-01T09:00:00.000Z INFO  [store] opening gateway.db\n');
    child.writeStderr("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'koa'\n    at packageResolve\n");
    await vi.waitFor(() => expect(log.lastLines(3)).toHaveLength(3));
    child.exit(1);
    expect(failures).toEqual(['The gateway core stopped before it was ready (exit code 1).']);

    const dialog = failureDialog(
      { kind: 'other', message: failures[0] ?? '' },
      { retrying: true, log: { file: log.path, lastLines: log.lastLines(8) } },
    );
    expect(dialog.detail).toContain(`The log file is ${log.path}.`);
    expect(dialog.detail).toContain("Cannot find package 'koa'");
    await core.stop();
    log.close();
  });
});
