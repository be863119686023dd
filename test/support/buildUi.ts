import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * vitest globalSetup: builds the React UI into dist/ui when it is missing or older than any
 * source it is made from (renderer/, and the PDU planner, desk helpers and shared records it imports from server/), so the
 * browser tests always drive the current code without rebuilding on every run.
 */
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const builtIndex = join(repoRoot, 'dist/ui/index.html');
const sourceFolders = ['renderer', 'server/pdu', 'server/desk', 'server/domain'].map((folder) =>
  join(repoRoot, folder),
);

function newestModification(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    const modified = entry.isDirectory() ? newestModification(path) : statSync(path).mtimeMs;
    if (modified > newest) newest = modified;
  }
  return newest;
}

export function uiBuildIsStale(): boolean {
  if (!existsSync(builtIndex)) return true;
  const builtAt = statSync(builtIndex).mtimeMs;
  return sourceFolders.some((folder) => newestModification(folder) > builtAt);
}

export default async function buildUi(): Promise<void> {
  if (!uiBuildIsStale()) return;
  const { build } = await import('vite');
  await build({
    configFile: join(repoRoot, 'renderer/vite.config.ts'),
    logLevel: 'warn',
    mode: 'production',
  });
}
