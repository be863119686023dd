import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Rollup } from 'vite';

/**
 * vitest globalSetup: builds the React UI into dist/ui when it is missing or older than any
 * file the last build read, so the browser tests always drive the current code without
 * rebuilding on every run. The list of files comes from the build itself (every module in its
 * chunks), so a server module the window imports, however indirectly, is watched too.
 */
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const builtIndex = join(repoRoot, 'dist/ui/index.html');
const viteConfig = join(repoRoot, 'renderer/vite.config.ts');
/** Outside dist/ui, which the installers ship. */
const sourceList = join(repoRoot, 'node_modules/.cache/desktop-sms-gateway/ui-sources.json');

export function uiBuildIsStale(): boolean {
  if (!existsSync(builtIndex) || !existsSync(sourceList)) return true;
  const builtAt = statSync(builtIndex).mtimeMs;
  const sources = JSON.parse(readFileSync(sourceList, 'utf8')) as string[];
  return [viteConfig, ...sources].some((source) => !existsSync(source) || statSync(source).mtimeMs > builtAt);
}

/** The repository's own files among the modules of the built chunks. */
function filesRead(outputs: Rollup.RollupOutput[]): string[] {
  const files = new Set<string>();
  for (const { output } of outputs) {
    for (const item of output) {
      const ids = item.type === 'chunk' ? [item.facadeModuleId, ...item.moduleIds] : [];
      for (const id of ids) {
        if (id !== null && isAbsolute(id) && id.startsWith(repoRoot) && !id.includes('/node_modules/'))
          files.add(id);
      }
    }
  }
  return [...files].sort();
}

export default async function buildUi(): Promise<void> {
  if (!uiBuildIsStale()) return;
  const { build } = await import('vite');
  const result = await build({ configFile: viteConfig, logLevel: 'warn', mode: 'production' });
  if (!Array.isArray(result) && !('output' in result)) throw new Error('the UI build returned a watcher');
  mkdirSync(dirname(sourceList), { recursive: true });
  writeFileSync(sourceList, JSON.stringify(filesRead(Array.isArray(result) ? result : [result]), null, 1));
}
