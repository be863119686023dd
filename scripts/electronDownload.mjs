// The first `npm start` on a desktop downloads Electron's binary (scripts/start.mjs).
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';

/**
 * Runs the electron package's own installer (its install.js: @electron/get's download, checked
 * against the package's checksums, then unzipped) where the user sees it: @electron/get draws
 * its progress bar on a terminal once a download has taken 30 s, and prints its error when it
 * fails. Said before: what is downloaded and how long it may take; returned: why it failed.
 *
 * @param {{ installer: string, version: string, timeoutMs: number, report: (line: string) => void }} options
 * @returns {string | undefined} why there is no binary, or undefined once it is installed
 */
export function downloadElectron({ installer, version, timeoutMs, report }) {
  const limit =
    timeoutMs >= 60_000 ? `${Math.round(timeoutMs / 60_000)} min` : `${Math.ceil(timeoutMs / 1000)} s`;
  report(
    `[start] downloading Electron ${version} for the desktop window (about 100 MB, once). ` +
      `This can take a few minutes; after ${limit} the gateway starts headless instead.`,
  );
  const result = spawnSync(process.execPath, [installer], {
    cwd: dirname(installer),
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: timeoutMs,
  });
  if (result.error?.code === 'ETIMEDOUT') return `its download did not finish within ${limit}`;
  if (result.error) return `its installer could not run (${result.error.message})`;
  if (result.status !== 0) return `its download failed (the installer's error is above)`;
  report('[start] Electron is installed.');
  return undefined;
}
