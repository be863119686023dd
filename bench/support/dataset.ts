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
  /** A fresh empty data directory. */
  empty(): Promise<string>;
  readonly storedCount: number;
  removeAll(): Promise<void>;
}

export async function createDatasets(storedCount: number): Promise<Datasets> {
  const root = await mkdtemp(join(tmpdir(), 'sms-bench-data-'));
  const template = join(root, 'template');
  await prefillStore({ dataDir: template, messages: storedCount, incoming: storedCount });
  let next = 0;
  return {
    storedCount,
    async stored() {
      const dataDir = join(root, `run-${next++}`);
      // The template's lock file is released on close; a copy starts unlocked the same way.
      await cp(template, dataDir, { recursive: true });
      return dataDir;
    },
    async empty() {
      return join(root, `run-${next++}`);
    },
    removeAll: () => rm(root, { recursive: true, force: true }),
  };
}
