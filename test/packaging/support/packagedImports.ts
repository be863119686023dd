import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../../scripts/packagedImports.mjs', import.meta.url));

/** An import found in `from` (a path relative to the app directory). */
export interface FoundImport {
  from: string;
  specifier: string;
}

/** What scripts/packagedImports.mjs prints. */
export interface ImportWalk {
  /** Files reached from the entries, theirs included. */
  files: number;
  /** Every package a reached file belongs to. */
  packages: string[];
  missingEntries: string[];
  /** Imports that lead nowhere. */
  unresolved: FoundImport[];
  /** Missing packages their importer declares optional. */
  optional: FoundImport[];
  /** Imports that lead out of the app directory. */
  outside: (FoundImport & { target: string })[];
}

/**
 * Follows the imports of `entries` inside `appDir` with Node's own resolver, in a process of its
 * own: only there can `import.meta.resolve` be given the importing file (a flag, on Node 20–24).
 */
export function walkPackagedImports(appDir: string, entries: readonly string[]): ImportWalk {
  const result = spawnSync(
    process.execPath,
    ['--no-warnings', '--experimental-import-meta-resolve', script, appDir, ...entries],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  if (result.status !== 0)
    throw new Error(`packagedImports.mjs failed (${result.status}):\n${result.stderr}`);
  return JSON.parse(result.stdout) as ImportWalk;
}
