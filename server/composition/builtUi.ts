import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built React UI next to the core: `dist/ui` beside `dist/server/` when run from the build,
 * or `<repo>/dist/ui` when run from source. Looked for from the calling module upwards, so the
 * headless CLI serves the UI it announces without `--ui-dir`.
 */
export function findBuiltUi(moduleUrl: string, levels = 4): string | undefined {
  let folder = dirname(fileURLToPath(moduleUrl));
  for (let level = 0; level < levels; level++) {
    for (const candidate of [join(folder, 'ui'), join(folder, 'dist', 'ui')]) {
      if (existsSync(join(candidate, 'index.html'))) return candidate;
    }
    folder = dirname(folder);
  }
  return undefined;
}
