import type { GroupCommit } from '../../store/sqlite/groupCommit.js';
import type { EventBus, GatewayEvents, RecordedFacts } from './eventBus.js';

/**
 * Announces a fact that owes deliveries (webhooks, mail, fleet reports) as the transactional
 * outbox wants it: recorded in a write of the store, whose recorders add the deliveries to that
 * same batch, then emitted once durable for everyone else. A fact stored in the same turn shares
 * the commit; a fact stored nowhere else (a low balance, an MMS a phone posted) is durable as
 * its deliveries. Resolves once durable: a caller that acknowledges the fact to someone (a
 * phone's webhook) answers after that.
 */
export interface FactAnnouncer {
  announce<K extends keyof RecordedFacts>(name: K, payload: RecordedFacts[K]): Promise<void>;
  /**
   * The two halves of `announce`, for a caller that must show the fact elsewhere first (a
   * reading kept in a document) before everyone hears of it: `durable` settles once the
   * deliveries are on disk, `emit` tells everyone else.
   */
  owe<K extends keyof RecordedFacts>(
    name: K,
    payload: RecordedFacts[K],
  ): { durable: Promise<void>; emit(): void };
}

export function createFactAnnouncer(commits: Pick<GroupCommit, 'write'>, events: EventBus): FactAnnouncer {
  const owe: FactAnnouncer['owe'] = (name, payload) => {
    const { durable } = commits.write(() => events.record(name, payload));
    return { durable, emit: () => events.emit(name, payload as GatewayEvents[typeof name]) };
  };
  return {
    owe,
    async announce(name, payload) {
      const owed = owe(name, payload);
      await owed.durable;
      owed.emit();
    },
  };
}
