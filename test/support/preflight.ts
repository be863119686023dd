/**
 * First step of `npm test`: makes sure the system programs the tests drive (systemTools.ts:
 * socat, Chromium, swaks, Net::SMPP, Kannel) are here before anything runs.
 *
 * Where the machine allows it without asking — root on Debian, as in CI and containers — the
 * missing packages are installed with apt-get. Anywhere else it stops at once with one message
 * naming each missing tool and the command that installs it (docs/decisions.md).
 */
import { spawnSync } from 'node:child_process';
import {
  debianPackages,
  detectHostSystem,
  type HostSystem,
  missingSystemTools,
  missingToolsMessage,
  type SystemTool,
} from './systemTools.js';

/** The tools this machine may install by itself: as root, with apt-get, where the packages are real. */
function installableWithoutAsking(system: HostSystem, tools: readonly SystemTool[]): SystemTool[] {
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) return [];
  if (system === 'debian') return [...tools];
  // On Ubuntu the chromium package only installs a snap, which a container cannot run.
  if (system === 'ubuntu') return tools.filter((tool) => tool !== 'chromium');
  return [];
}

function aptInstall(tools: readonly SystemTool[]): boolean {
  const packages = debianPackages(tools);
  console.log(`npm test: installing ${packages.join(', ')} with apt-get (running as root on Debian)`);
  const environment = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update'], { stdio: 'inherit', env: environment });
  if (update.status !== 0) return false;
  const install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], {
    stdio: 'inherit',
    env: environment,
  });
  return install.status === 0;
}

function main(): number {
  const missing = missingSystemTools();
  if (missing.length === 0) return 0;
  const system = detectHostSystem();
  const installable = installableWithoutAsking(system, missing);
  if (installable.length > 0 && !aptInstall(installable)) {
    console.error('npm test: apt-get could not install the packages (see its output above).');
  }
  const stillMissing = missingSystemTools();
  if (stillMissing.length === 0) return 0;
  console.error(`\nnpm test stopped before running anything.\n${missingToolsMessage(stillMissing, system)}`);
  return 1;
}

process.exitCode = main();
