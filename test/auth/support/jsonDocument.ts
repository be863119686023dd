import type { Document } from '../../../server/store/documentStore.js';

/**
 * Stands in for the storage layer's lowdb document: `update` serialises to a JSON string kept
 * in `disk`, and `open` parses it back, so a service re-created on the same disk sees only what
 * was really persisted (no shared object references between "restarts").
 */
export class JsonDisk<T> {
  private stored: string;
  writes = 0;

  constructor(defaults: T) {
    this.stored = JSON.stringify(defaults);
  }

  /** What is on disk now, parsed. */
  read(): T {
    return JSON.parse(this.stored) as T;
  }

  open(): Pick<Document<T>, 'data' | 'update'> {
    const data = this.read();
    return {
      data,
      update: async (mutator) => {
        mutator(data);
        this.stored = JSON.stringify(data);
        this.writes++;
      },
    };
  }
}
