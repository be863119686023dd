import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prefillStore } from './prefill.js';

/**
 * Data directories for benchmark gateways: a prefilled template built once, copied for each
 * gateway so every measurement starts from the same store, and removed at the end.
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
  removeAll(): Promise<void>;
}

export async function createDatasets(storedCount: number, baselineCount: number): Promise<Datasets> {
  const root = await mkdtemp(join(tmpdir(), 'sms-bench-data-'));
  const template = join(root, 'template');
  const baselineTemplate = join(root, 'baseline-template');
  await prefillStore({ dataDir: template, messages: storedCount, incoming: storedCount });
  await prefillStore({ dataDir: baselineTemplate, messages: baselineCount, incoming: baselineCount });
  let next = 0;
  // The templates' lock files are released on close; a copy starts unlocked the same way.
  const copyOf = async (source: string) => {
    const dataDir = join(root, `run-${next++}`);
    await cp(source, dataDir, { recursive: true });
    return dataDir;
  };
  return {
    storedCount,
    baselineCount,
    stored: () => copyOf(template),
    baseline: () => copyOf(baselineTemplate),
    async empty() {
      return join(root, `run-${next++}`);
    },
    removeAll: () => rm(root, { recursive: true, force: true }),
  };
}
