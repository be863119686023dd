import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { silentLogger } from '../../server/logging/logger.js';
import { openStorage } from '../../server/store/storage.js';
import { temporaryDirectory } from './storeTestKit.js';

const childScript = fileURLToPath(new URL('./durabilityChild.ts', import.meta.url));

/**
 * Runs the writer child until it has reported `target` durable inserts, then SIGKILLs it (no
 * chance to flush or clean up). Returns the ids it reported as durable.
 */
function runUntilKilled(dataDir: string, prefix: string, target: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', childScript, dataDir, prefix], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const reported: string[] = [];
    let buffered = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('ok ')) reported.push(line.slice(3));
      }
      if (reported.length >= target && child.exitCode === null) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve(reported);
      else reject(new Error(`writer exited on its own (${signal ?? _code}): ${stderr}`));
    });
  });
}

describe('durability under kill -9', () => {
  let dir: { path: string; remove: () => Promise<void> };

  beforeEach(async () => {
    dir = await temporaryDirectory();
  });

  afterEach(async () => {
    await dir.remove();
  });

  it('keeps every insert that was reported durable when the process is killed at random moments', async () => {
    const acknowledged: string[] = [];
    // Random kill points; the seed-free randomness is fine: every run must pass.
    const targets = Array.from({ length: 4 }, () => 100 + Math.floor(Math.random() * 900));
    for (const [round, target] of targets.entries()) {
      acknowledged.push(...(await runUntilKilled(dir.path, `r${round}`, target)));
      // The killed child left its lock behind: reopening must take it over.
      const storage = await openStorage({
        dataDir: dir.path,
        clock: new ManualClock(),
        logger: silentLogger,
      });
      const missing = acknowledged.filter((id) => storage.messages.get(id) === undefined);
      expect(missing).toEqual([]);
      expect(storage.messages.count()).toBeGreaterThanOrEqual(acknowledged.length);
      await storage.close();
    }
  }, 60_000);
});
