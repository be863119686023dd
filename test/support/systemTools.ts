/**
 * The system programs the test suite needs beyond Node and npm, and how to get them.
 *
 * - `socat` joins two pseudo-terminals like a serial cable, so the REAL serialport binding
 *   talks to the modem simulator. No npm package does this without a compiler (node-pty has no
 *   Linux prebuild), so it stays a system tool.
 * - Chromium runs the UI tests. Playwright's own browser download is not reachable everywhere,
 *   so the tests drive the system's Chromium (`CHROMIUM_PATH` names another one).
 * - The real counterparts users bring, which no one here wrote: `swaks` (with Net::SSLeay, for
 *   STARTTLS) as the mail client, Perl's Net::SMPP and Kannel's bearerbox/smsbox as SMPP clients.
 * - The Prometheus project's own Python client, whose text-format parser reads GET /metrics as
 *   a Prometheus server would.
 *
 * `npm test` checks them first (test/support/preflight.ts) and every suite that needs one
 * fails with the same message (never skips), so a missing tool is named, not a stack trace.
 */

import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type SystemTool = 'socat' | 'chromium' | 'swaks' | 'net-smpp' | 'kannel' | 'prometheus-parser';

/** Every tool, in the order the messages name them. */
export const systemTools: readonly SystemTool[] = [
  'socat',
  'chromium',
  'swaks',
  'net-smpp',
  'kannel',
  'prometheus-parser',
];

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

/** `command` on PATH, or in the sbin folders Debian puts daemons in (Kannel's boxes). */
function onPath(command: string): string | undefined {
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const folder of folders) {
    const candidate = join(folder, command);
    if (folder !== '' && isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Whether Perl loads every one of `modules`. */
function perlHas(...modules: string[]): boolean {
  const loads = modules.map((module) => `-M${module}`);
  return spawnSync('perl', [...loads, '-e', '1'], { stdio: 'ignore' }).status === 0;
}

/**
 * The Python that imports `prometheus_client`: the system's first (a pyenv or venv python on
 * PATH does not see the distribution's packages), then the one on PATH.
 */
function pythonWithPrometheusClient(): string | undefined {
  const candidates = ['/usr/bin/python3', onPath('python3')].filter((path) => path !== undefined);
  return candidates.find(
    (python) =>
      isExecutable(python) &&
      spawnSync(python, ['-c', 'import prometheus_client.parser'], { stdio: 'ignore' }).status === 0,
  );
}

/** The Chromium the UI tests launch: `CHROMIUM_PATH` when set, else the first one installed. */
export function findChromium(): string | undefined {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen !== undefined && chosen !== '') return isExecutable(chosen) ? chosen : undefined;
  return chromiumCandidates.find(isExecutable) ?? onPath('chromium');
}

/** Where each tool is (its program), or undefined when it is missing. */
const finders: Record<SystemTool, () => string | undefined> = {
  socat: () => onPath('socat'),
  chromium: findChromium,
  swaks: () => (perlHas('Net::SSLeay', 'IO::Socket::SSL') ? onPath('swaks') : undefined),
  'net-smpp': () => (perlHas('Net::SMPP') ? onPath('perl') : undefined),
  kannel: () => (onPath('smsbox') ? onPath('bearerbox') : undefined),
  'prometheus-parser': pythonWithPrometheusClient,
};

export function findSystemTool(tool: SystemTool): string | undefined {
  return finders[tool]();
}

export function missingSystemTools(): SystemTool[] {
  return systemTools.filter((tool) => findSystemTool(tool) === undefined);
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

/** Each tool's packages on Debian and Ubuntu, Fedora, and Homebrew (undefined: none there). */
const packages: Record<SystemTool, { apt: string[]; dnf?: string[]; brew?: string[] }> = {
  socat: { apt: ['socat'], dnf: ['socat'], brew: ['socat'] },
  chromium: { apt: ['chromium'], dnf: ['chromium'], brew: ['--cask chromium'] },
  swaks: {
    apt: ['swaks', 'libnet-ssleay-perl', 'libio-socket-ssl-perl'],
    dnf: ['swaks', 'perl-Net-SSLeay', 'perl-IO-Socket-SSL'],
    brew: ['swaks'],
  },
  'net-smpp': { apt: ['libnet-smpp-perl'] },
  kannel: { apt: ['kannel'] },
  'prometheus-parser': { apt: ['python3-prometheus-client'], dnf: ['python3-prometheus_client'] },
};

/** The Debian packages that install `tools`. */
export function debianPackages(tools: readonly SystemTool[]): string[] {
  return tools.flatMap((tool) => packages[tool].apt);
}

/** The command that installs `tools` on `system`, as a person types it. */
export function installCommand(system: HostSystem, tools: readonly SystemTool[]): string {
  const lines: string[] = [];
  const elsewhere = (wanted: readonly SystemTool[]) =>
    wanted.length > 0 && lines.push(`install ${wanted.join(' and ')} from source (no package here)`);
  switch (system) {
    case 'debian':
      lines.push(`sudo apt-get update && sudo apt-get install -y ${debianPackages(tools).join(' ')}`);
      break;
    case 'ubuntu': {
      // Ubuntu's "chromium" apt package is only a wrapper that installs the snap.
      const apt = tools.filter((tool) => tool !== 'chromium');
      if (apt.length > 0)
        lines.push(`sudo apt-get update && sudo apt-get install -y ${debianPackages(apt).join(' ')}`);
      if (tools.includes('chromium')) lines.push('sudo snap install chromium');
      break;
    }
    case 'fedora': {
      const dnf = tools.flatMap((tool) => packages[tool].dnf ?? []);
      if (dnf.length > 0) lines.push(`sudo dnf install -y ${dnf.join(' ')}`);
      elsewhere(tools.filter((tool) => !packages[tool].dnf));
      break;
    }
    case 'macos':
      for (const tool of tools)
        for (const formula of packages[tool].brew ?? []) lines.push(`brew install ${formula}`);
      elsewhere(tools.filter((tool) => !packages[tool].brew));
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
  swaks: 'swaks with Net::SSLeay (the real mail client of the e-mail → SMS tests, STARTTLS included)',
  'net-smpp': "Perl's Net::SMPP (a real SMPP client of the SMPP tests)",
  kannel: "Kannel's bearerbox and smsbox (the SMPP client users run against the gateway)",
  'prometheus-parser':
    "Prometheus's Python client (its parser reads GET /metrics as a Prometheus server does)",
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
  const found = findSystemTool(tool);
  if (found === undefined) throw new Error(missingToolsMessage([tool]));
  return found;
}
