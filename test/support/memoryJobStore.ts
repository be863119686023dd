import type { OutboxJob } from '../../server/contract/domain/outboxJob.js';
import type { JobStore } from '../../server/services/outbox/outbox.js';

/** The outbox's store in memory, for tests of a way out that need no database. */
export class MemoryJobStore implements JobStore {
  readonly records = new Map<string, OutboxJob>();

  async put(job: OutboxJob): Promise<void> {
    this.records.set(job.id, structuredClone(job));
  }

  async delete(id: string): Promise<void> {
    this.records.delete(id);
  }

  get(id: string): OutboxJob | undefined {
    return this.records.get(id);
  }

  *values(): Generator<OutboxJob> {
    yield* this.records.values();
  }
}
