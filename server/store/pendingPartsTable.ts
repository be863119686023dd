import type { PendingGroup, PendingPartsStore } from '../contract/domain/incoming.js';
import type { KeyedCollection } from './keyedCollection.js';

export interface StoredPendingGroup {
  id: string;
  group: PendingGroup;
}

/** The reassembler's pending multipart groups, one row per group, replaced together. */
export function pendingPartsIn(collection: KeyedCollection<StoredPendingGroup>): PendingPartsStore {
  return {
    async load() {
      return [...collection.values()].map((stored) => stored.group);
    },
    save(groups) {
      return collection.replaceAll(groups.map((group) => ({ id: group.key, group })));
    },
  };
}
