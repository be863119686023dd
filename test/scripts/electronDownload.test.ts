import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadElectron } from '../../scripts/electronDownload.mjs';

/**
 * Issue 49: the first `npm start` downloaded Electron without a word and, on failure, said only
 * that it could not. The electron package's installer cannot download here, so stand-in
 * installers (real scripts run by real Node) end as its install.js does: 0 once installed, 1
 * with its error printed, or never.
 */
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'electron-download-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function installer(name: string, body: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, body);
  return path;
}

function download(path: string, timeoutMs = 20_000) {
  const lines: string[] = [];
  const failure = downloadElectron({
    installer: path,
    version: '45.1.0',
    timeoutMs,
    report: (line) => lines.push(line),
  });
  return { failure, lines };
}

describe('the first npm start downloading Electron', () => {
  it('says what it downloads before, and that it is installed after', async () => {
    const { failure, lines } = download(await installer('ok.js', 'process.exit(0);\n'));
    expect(failure).toBeUndefined();
    expect(lines).toEqual([
      '[start] downloading Electron 45.1.0 for the desktop window (about 100 MB, once). This can take a few minutes; after 20 s the gateway starts headless instead.',
      '[start] Electron is installed.',
    ]);
  });

  it('says why it goes on headless when the download fails or never ends', async () => {
    const refused = await installer(
      'refused.js',
      "console.error('HTTPError: Response code 404 (Not Found)');\nprocess.exit(1);\n",
    );
    expect(download(refused).failure).toBe("its download failed (the installer's error is above)");
    const stuck = await installer('stuck.js', 'setInterval(() => undefined, 1000);\n');
    expect(download(stuck, 500).failure).toBe('its download did not finish within 1 s');
  });
});
