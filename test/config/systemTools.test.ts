import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installCommand, missingToolsMessage } from '../support/systemTools.js';

describe('the test prerequisites message', () => {
  it('names each missing tool and the command for each system', () => {
    expect(installCommand('debian', ['socat', 'chromium'])).toBe(
      'sudo apt-get update && sudo apt-get install -y socat chromium',
    );
    expect(installCommand('debian', ['swaks', 'net-smpp', 'kannel'])).toBe(
      'sudo apt-get update && sudo apt-get install -y swaks libnet-ssleay-perl libio-socket-ssl-perl libnet-smpp-perl kannel',
    );
    expect(installCommand('ubuntu', ['socat', 'chromium', 'kannel'])).toBe(
      'sudo apt-get update && sudo apt-get install -y socat kannel\n  sudo snap install chromium',
    );
    expect(installCommand('ubuntu', ['chromium'])).toBe('sudo snap install chromium');
    expect(installCommand('debian', ['prometheus-parser'])).toBe(
      'sudo apt-get update && sudo apt-get install -y python3-prometheus-client',
    );
    expect(installCommand('fedora', ['socat'])).toBe('sudo dnf install -y socat');
    expect(installCommand('macos', ['socat', 'chromium'])).toBe(
      'brew install socat\n  brew install --cask chromium',
    );
    expect(installCommand('macos', ['swaks', 'kannel'])).toBe(
      'brew install swaks\n  install kannel from source (no package here)',
    );
    const message = missingToolsMessage(['socat'], 'fedora');
    expect(message).toContain('socat (pseudo-terminal pairs');
    expect(message).not.toContain('Chromium');
  });

  it('stops `npm test` before anything runs when the tools are missing and cannot be installed', () => {
    // A PATH holding only node: no socat, no apt-get, so nothing can be installed without asking.
    const bareBin = mkdtempSync(join(tmpdir(), 'smsgw-bare-path-'));
    symlinkSync(process.execPath, join(bareBin, 'node'));
    const tsx = join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/cli.mjs');
    const run = spawnSync(process.execPath, [tsx, 'test/support/preflight.ts'], {
      env: { PATH: bareBin, CHROMIUM_PATH: join(bareBin, 'no-chromium') },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('npm test stopped before running anything.');
    expect(run.stderr).toContain('- socat');
    expect(run.stderr).toContain('- Chromium');
    expect(run.stderr).toMatch(/Install with:\n {2}\S/);
  });
});
