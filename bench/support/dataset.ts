import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schemaVersion } from '../../server/store/sqlite/schema.js';
import { repositoryRoot } from './gatewayProcess.js';
import { prefillStore } from './prefill.js';

/**
 * Data directories for benchmark gateways: a prefilled template built once, copied for each
 * gateway so every measurement starts from the same store, and removed at the end.
 *
 * With `cacheDir`, templates outlive the run: 1,000,000 + 1,000,000 rows take minutes to write,
 * so a template is kept under `cacheDir` and reused while it is younger than `maxTemplateAgeMs`
 * and was made by the same code (its name holds the schema version and a hash of the prefill).
 * A template is built only when a workload first asks for it (`--only modem` needs none).
 */
export interface Datasets {
  /** A fresh copy of the template with `stored` messages and incoming messages. */
  stored(): Promise<string>;
  /** A fresh copy of the small template, `baselineCount` of each. */
  baseline(): Promise<string>;
  /** A fresh empty data directory. */
  empty(): Promise<string>;
  readonly storedCount: number;
  readonly baselineCount: number;
  /** Removes the copies (a cached template stays). */
  removeAll(): Promise<void>;
}

export interface DatasetOptions {
  /** Where templates are kept between runs; without it they are built under the run's folder. */
  cacheDir?: string;
  /** Build the templates again even when the cache has them. */
  fresh?: boolean;
  /** Progress lines (template built or reused, how long it took). */
  report?: (line: string) => void;
}

/** The bench's own cache folder: /tmp is cleared at boot, which is when the data should go. */
export const defaultCacheDir = join(tmpdir(), 'sms-bench-templates');

/**
 * Records are spread over the week before the prefill, and the period reads ask for "2 to 3
 * days ago": a template older than this would no longer have that day's rows in the middle.
 */
const maxTemplateAgeMs = 3 * 24 * 60 * 60_000;

/**
 * What decides the prefilled data: the schema's version and the prefill itself. (A change to how
 * a repository lays out a row without a schema step is not seen: `--fresh-data` then.)
 */
const templateSource = 'bench/support/prefill.ts';

export async function createDatasets(
  storedCount: number,
  baselineCount: number,
  options: DatasetOptions = {},
): Promise<Datasets> {
  const root = await mkdtemp(join(tmpdir(), 'sms-bench-data-'));
  const report = options.report ?? (() => undefined);
  const templates = new Map<number, Promise<string>>();
  const template = (count: number) => {
    let built = templates.get(count);
    if (!built) {
      built = options.cacheDir
        ? cachedTemplate(options.cacheDir, count, options.fresh ?? false, report)
        : timedPrefill(join(root, `template-${count}`), count, report);
      templates.set(count, built);
    }
    return built;
  };
  let next = 0;
  // The templates' lock files are released on close; a copy starts unlocked the same way.
  const copyOf = async (source: string) => {
    const dataDir = join(root, `run-${next++}`);
    await cp(source, dataDir, { recursive: true });
    await flushToDisk(dataDir);
    return dataDir;
  };
  return {
    storedCount,
    baselineCount,
    stored: async () => copyOf(await template(storedCount)),
    baseline: async () => copyOf(await template(baselineCount)),
    async empty() {
      return join(root, `run-${next++}`);
    },
    removeAll: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * fsyncs every file under `dir`. A copy of the large template leaves gigabytes of dirty pages,
 * which the kernel writes back about 30 s later (vm.dirty_expire_centisecs) in one burst, in the
 * middle of the first measurement on that copy; a gateway's own data never comes to it that way.
 */
async function flushToDisk(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = await open(join(entry.parentPath, entry.name), 'r');
    try {
      await file.sync();
    } finally {
      await file.close();
    }
  }
}

async function cachedTemplate(
  cacheDir: string,
  count: number,
  fresh: boolean,
  report: (line: string) => void,
): Promise<string> {
  const prefix = `${count}-`;
  const name = `${prefix}${await sourcesHash()}`;
  const path = join(cacheDir, name);
  const made = await stat(path).then(
    (found) => found.mtimeMs,
    () => undefined,
  );
  if (!fresh && made !== undefined && Date.now() - made < maxTemplateAgeMs) {
    report(`prefilled data: reusing ${path} (made ${new Date(made).toISOString()})`);
    return path;
  }
  await mkdir(cacheDir, { recursive: true });
  // Older templates of this size (other code, or too old) go: each is gigabytes at full size.
  for (const entry of await readdir(cacheDir)) {
    if (entry.startsWith(prefix)) await rm(join(cacheDir, entry), { recursive: true, force: true });
  }
  // Built aside and renamed when complete, so an interrupted prefill is never taken for a template.
  const partial = await mkdtemp(join(cacheDir, `${prefix}partial-`));
  await timedPrefill(join(partial, 'data'), count, report);
  await rename(join(partial, 'data'), path);
  await rm(partial, { recursive: true, force: true });
  return path;
}

async function timedPrefill(dataDir: string, count: number, report: (line: string) => void): Promise<string> {
  const startedAt = performance.now();
  await prefillStore({ dataDir, messages: count, incoming: count });
  const seconds = (performance.now() - startedAt) / 1000;
  report(
    `prefilled data: ${count.toLocaleString('en-US')} + ${count.toLocaleString('en-US')} in ${seconds.toFixed(0)} s`,
  );
  return dataDir;
}

async function sourcesHash(): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`schema ${schemaVersion}\n`);
  hash.update(await readFile(join(repositoryRoot, templateSource)));
  return hash.digest('hex').slice(0, 16);
}
