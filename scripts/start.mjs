#!/usr/bin/env node
// `npm start`: build what is stale, then open the desktop app (Electron) when its binary and a
// display are available, else run the same core headless under Node — and say which, and why.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloadElectron } from './electronDownload.mjs';
import { npmCommand } from './npmCommand.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const headlessRequested = args.includes('--headless');
const gatewayArgs = args.filter((arg) => arg !== '--headless');

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function buildIfStale(label, sources, output, npmScript) {
  const built = newestMtime(output);
  const changed = Math.max(...sources.map((source) => newestMtime(join(root, source))));
  if (built >= changed) return;
  console.error(`[start] building ${label}…`);
  const npm = npmCommand(['run', '--silent', npmScript], process);
  const result = spawnSync(npm.command, npm.args, { cwd: root, stdio: 'inherit', shell: npm.shell });
  if (result.error) console.error(`[start] cannot run npm: ${result.error.message}`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

buildIfStale(
  'the gateway core',
  ['server', 'electron', 'package.json'],
  join(root, 'dist', 'server', 'cli', 'main.js'),
  'build:core',
);
buildIfStale(
  'the user interface',
  ['renderer', 'server/pdu'],
  join(root, 'dist', 'ui', 'index.html'),
  'build:ui',
);

function electronBinary() {
  // Read where the electron package keeps its binary rather than require('electron'): since
  // Electron 42 that downloads a missing binary itself, unasked and with no time limit
  // (docs/breaking-changes.md, 42.0). path.txt is written by its install.js after a download.
  const electronPackage = join(root, 'node_modules', 'electron');
  const pathFile = join(electronPackage, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(electronPackage, 'dist', readFileSync(pathFile, 'utf8'));
  return existsSync(binary) ? binary : undefined;
}

/** Why the binary could not be had, or undefined once it is there. */
function fetchElectronBinary() {
  // The electron package has no install script since Electron 42: try its download once now, so
  // a user's machine with internet gets the desktop window.
  const electronPackage = join(root, 'node_modules', 'electron');
  const installer = join(electronPackage, 'install.js');
  if (!existsSync(installer)) return 'the electron package is not installed (run npm install)';
  const { version } = JSON.parse(readFileSync(join(electronPackage, 'package.json'), 'utf8'));
  return downloadElectron({ installer, version, timeoutMs: 5 * 60_000, report: console.error });
}

function hasDisplay() {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

let binary;
let reason;
if (headlessRequested) reason = '--headless was given';
else if (!hasDisplay()) reason = 'no display is available (DISPLAY/WAYLAND_DISPLAY unset)';
else {
  binary = electronBinary();
  if (!binary) {
    const failure = fetchElectronBinary();
    binary = electronBinary();
    if (!binary) reason = `the Electron binary is not installed: ${failure ?? 'the download left none'}`;
  }
}

if (!binary) console.error(`[start] running headless: ${reason}. The UI is served in your browser instead.`);
const child = binary
  ? spawn(binary, [join(root, 'dist', 'electron', 'main.js'), ...gatewayArgs], {
      cwd: root,
      stdio: 'inherit',
    })
  : spawn(process.execPath, [join(root, 'dist', 'server', 'cli', 'main.js'), ...gatewayArgs], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, SMSGW_UI_DIR: process.env.SMSGW_UI_DIR ?? join(root, 'dist', 'ui') },
    });

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
