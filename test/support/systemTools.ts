/**
 * The two system programs the test suite needs beyond Node and npm, and how to get them.
 *
 * - `socat` joins two pseudo-terminals like a serial cable, so the REAL serialport binding
 *   talks to the modem simulator. No npm package does this without a compiler (node-pty has no
 *   Linux prebuild), so it stays a system tool.
 * - Chromium runs the UI tests. Playwright's own browser download is not reachable everywhere,
 *   so the tests drive the system's Chromium (`CHROMIUM_PATH` names another one).
 *
 * `npm test` checks them first (test/support/preflight.ts) and every suite that needs one
 * fails with the same message (never skips), so a missing tool is named, not a stack trace.
 */
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type SystemTool = 'socat' | 'chromium';

/** Where the distributions and Homebrew put Chromium; the first that exists is used. */
const chromiumCandidates = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(folder, command);
    if (folder !== '' && isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** The Chromium the UI tests launch: `CHROMIUM_PATH` when set, else the first one installed. */
export function findChromium(): string | undefined {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen !== undefined && chosen !== '') return isExecutable(chosen) ? chosen : undefined;
  return chromiumCandidates.find(isExecutable) ?? onPath('chromium');
}

export function findSocat(): string | undefined {
  return onPath('socat');
}

export function missingSystemTools(): SystemTool[] {
  const missing: SystemTool[] = [];
  if (findSocat() === undefined) missing.push('socat');
  if (findChromium() === undefined) missing.push('chromium');
  return missing;
}

export type HostSystem = 'debian' | 'ubuntu' | 'fedora' | 'macos' | 'other';

export function detectHostSystem(): HostSystem {
  if (process.platform === 'darwin') return 'macos';
  if (!existsSync('/etc/os-release')) return 'other';
  const release = readFileSync('/etc/os-release', 'utf8');
  const field = (name: string) => new RegExp(`^${name}="?([^"\\n]*)`, 'm').exec(release)?.[1] ?? '';
  const id = field('ID');
  const family = `${id} ${field('ID_LIKE')}`;
  if (id === 'ubuntu' || family.includes('ubuntu')) return 'ubuntu';
  if (family.includes('debian')) return 'debian';
  if (family.includes('fedora') || family.includes('rhel')) return 'fedora';
  return 'other';
}

/** The command that installs `tools` on `system`, as a person types it. */
export function installCommand(system: HostSystem, tools: readonly SystemTool[]): string {
  const wantsSocat = tools.includes('socat');
  const wantsChromium = tools.includes('chromium');
  const lines: string[] = [];
  switch (system) {
    case 'debian':
      lines.push(`sudo apt-get update && sudo apt-get install -y ${tools.join(' ')}`);
      break;
    case 'ubuntu':
      // Ubuntu's "chromium" apt package is only a wrapper that installs the snap.
      if (wantsSocat) lines.push('sudo apt-get update && sudo apt-get install -y socat');
      if (wantsChromium) lines.push('sudo snap install chromium');
      break;
    case 'fedora':
      lines.push(`sudo dnf install -y ${tools.join(' ')}`);
      break;
    case 'macos':
      if (wantsSocat) lines.push('brew install socat');
      if (wantsChromium) lines.push('brew install --cask chromium');
      break;
    case 'other':
      lines.push(`install ${tools.join(' and ')} with your system's package manager`);
      break;
  }
  return lines.join('\n  ');
}

const purpose: Record<SystemTool, string> = {
  socat: 'socat (pseudo-terminal pairs for the real-serialport tests)',
  chromium: 'Chromium (the UI tests; set CHROMIUM_PATH to use another Chromium or Chrome)',
};

/** One message naming each missing tool and the command that installs it here. */
export function missingToolsMessage(tools: readonly SystemTool[], system = detectHostSystem()): string {
  return [
    `The tests need ${tools.length === 1 ? 'a program' : 'programs'} this machine does not have:`,
    ...tools.map((tool) => `  - ${purpose[tool]}`),
    'Install with:',
    `  ${installCommand(system, tools)}`,
    'then run `npm test` again.',
  ].join('\n');
}

/** Throws the install message when `tool` is missing: a suite that cannot run fails, never skips. */
export function requireSystemTool(tool: SystemTool): string {
  const found = tool === 'socat' ? findSocat() : findChromium();
  if (found === undefined) throw new Error(missingToolsMessage([tool]));
  return found;
}
