import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../bench/support/gatewayProcess.js';

/** `npm run bench -- --quick` must keep working: every workload runs tiny and prints its row. */
const expectedRows = [
  'POST /messages, c=1, 0 stored',
  'POST /messages, c=16, 0 stored',
  'POST /messages, c=64, 0 stored',
  'POST /messages, c=1, 1,000 stored',
  'POST /messages, c=16, 1,000 stored',
  'POST /messages, c=64, 1,000 stored',
  'GET /messages?limit=50&search=4477009123, c=16, 1,000 stored, after the POST rows (',
  'GET /messages?limit=50, c=16, 1,000 stored',
  'GET /messages?limit=50&state=Failed&from=<3 days ago>&to=<2 days ago>, c=16, 1,000 stored',
  'GET /messages?limit=50&search=4477009123, c=16, 1,000 stored',
  'GET /inbox?limit=50, c=16, 1,000 stored',
  'GET /inbox?limit=50&from=<3 days ago>&to=<2 days ago>&search=4477009123, c=16, 1,000 stored',
  'single-part, 1 modem',
  '3-part, 1 modem',
  'idle POST → PDU at modem',
  'single-part, 4 modems',
  '3-part, 4 modems',
  'single-part, 16 modems',
  '3-part, 16 modems',
  '40-part burst, 1 modem, with +CMMS (mode 2)',
  'total',
  'import 2,000 contacts (CSV, commit)',
  'preview a campaign to 2,000 CSV rows',
  'preview a campaign to 2,000 typed numbers',
  'preview a campaign to a group of 2,000',
  'start a campaign of 500 messages',
  '16 queued, 4 modems',
  '8 queued, 4 modems',
  'resident memory, idle',
  'resident memory, 100 stored',
  'resident memory, 1,000 stored',
  'resident memory, peak during the 16-modem run',
  'start → GET /health answers, 100 stored',
  'start → GET /health answers, 1,000 stored',
  'this gateway',
];

function runQuickBench(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('bench', 'run.ts'), '--quick'], {
      cwd: repositoryRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run bench -- --quick', () => {
  it('prints the machine and a row with figures for every workload', async () => {
    const { code, stdout, stderr } = await runQuickBench();
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^Machine: .+, \d+ cores, [\d.]+ GiB RAM, Node v\d+/m);
    const lines = stdout.split('\n');
    for (const label of expectedRows) {
      const row = lines.find((line) => line.startsWith(`| ${label}`));
      expect(row, `row "${label}"`).toBeDefined();
      // The first figure after the label is a measured number, not n/a.
      const firstValue = row?.split('|')[2]?.trim() ?? '';
      expect(firstValue, `first figure of "${label}"`).toMatch(/^\d+(\.\d+)?( \/ \d+(\.\d+)?)?( MB| ms)?$/);
    }
  }, 300_000);
});
