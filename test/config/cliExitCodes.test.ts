import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findBuiltUi } from '../../server/composition/builtUi.js';

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

function withoutUiDir(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { SMSGW_UI_DIR: _ignored, ...rest } = env;
  return rest;
}

describe('the headless command line serving the UI', () => {
  it('serves the built UI it announces without --ui-dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'smsgw-cli-ui-'));
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'server/cli/main.ts',
        '--listen',
        '127.0.0.1:0',
        '--data-dir',
        dataDir,
        '--no-probe',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: withoutUiDir(process.env) },
    );
    try {
      let printed = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          printed += chunk.toString();
          const announced = /Open the UI: {2}(\S+)/.exec(printed)?.[1];
          if (announced) resolve(announced);
        });
        child.once('exit', (code) => reject(new Error(`the CLI exited with ${code}: ${printed}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('<div id="root">');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('finds the UI built beside the core, from the build or from source, and nothing where there is none', () => {
    const root = mkdtempSync(join(tmpdir(), 'smsgw-built-ui-'));
    try {
      mkdirSync(join(root, 'dist', 'server', 'cli'), { recursive: true });
      const cliModule = pathToFileURL(join(root, 'dist', 'server', 'cli', 'main.js')).href;
      expect(findBuiltUi(cliModule)).toBeUndefined();
      mkdirSync(join(root, 'dist', 'ui'));
      writeFileSync(join(root, 'dist', 'ui', 'index.html'), '<!doctype html>');
      expect(findBuiltUi(cliModule)).toBe(join(root, 'dist', 'ui'));
      expect(findBuiltUi(pathToFileURL(join(root, 'server', 'cli', 'main.ts')).href)).toBe(
        join(root, 'dist', 'ui'),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
