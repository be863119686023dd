import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { npmCommand } from '../../scripts/npmCommand.mjs';

const execPath = '/opt/node/bin/node';

describe('how npm start runs npm', () => {
  it('runs npm’s own CLI script with this Node when npm started us, on every platform', () => {
    for (const platform of ['win32', 'darwin', 'linux'] as const) {
      const env = { npm_execpath: 'C:\\npm\\bin\\npm-cli.js' };
      expect(npmCommand(['run', 'build:core'], { platform, env, execPath })).toEqual({
        command: execPath,
        args: ['C:\\npm\\bin\\npm-cli.js', 'run', 'build:core'],
        shell: false,
      });
    }
  });

  it('runs npm.cmd through the shell on Windows when started without npm', () => {
    expect(npmCommand(['run', 'build:ui'], { platform: 'win32', env: {}, execPath })).toEqual({
      command: 'npm.cmd',
      args: ['run', 'build:ui'],
      shell: true,
    });
  });

  it('runs npm from the PATH on macOS and Linux when started without npm', () => {
    for (const platform of ['darwin', 'linux'] as const) {
      expect(npmCommand(['run', 'x'], { platform, env: {}, execPath }).command).toBe('npm');
    }
  });

  it('gives a command that really runs npm here, with and without npm_execpath', () => {
    const direct = npmCommand(['--version'], { platform: process.platform, env: {}, execPath });
    const plain = spawnSync(direct.command, direct.args, { shell: direct.shell, encoding: 'utf8' });
    expect(plain.status).toBe(0);
    expect(plain.stdout).toMatch(/^\d+\.\d+\.\d+/);

    // Where npm's CLI script lives, as npm itself reports it to the scripts it runs.
    const cli = spawnSync(direct.command, ['exec', '--', 'node', '-p', 'process.env.npm_execpath'], {
      shell: direct.shell,
      encoding: 'utf8',
    }).stdout.trim();
    const viaCli = npmCommand(['--version'], {
      platform: process.platform,
      env: { npm_execpath: cli },
      execPath: process.execPath,
    });
    const result = spawnSync(viaCli.command, viaCli.args, { shell: viaCli.shell, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(plain.stdout.trim());
  });
});
