import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function runCli(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/main.ts', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('the headless command line', () => {
  it('exits with code 2 and names the flag when a flag is wrong', () => {
    const result = runCli('--listen', 'not-an-address');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--listen');
    expect(result.stderr).toContain('Usage: npm start -- [options]');
  });

  it('exits with code 2 on an unknown flag', () => {
    const result = runCli('--frobnicate');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('frobnicate');
  });

  it('prints the usage and exits 0 for --help', () => {
    const result = runCli('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('--modem <path>[:<baud>]');
  });
});
