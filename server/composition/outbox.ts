import type { Clock } from '../clock/clock.js';
import type { OutboxJob } from '../contract/domain/outboxJob.js';
import type { Logger } from '../logging/logger.js';
import { Outbox } from '../services/outbox/outbox.js';
import type { Storage } from '../store/storage.js';
import type { StopList } from './stopList.js';

/**
 * The one outbox, opened right after the store: every step that owes deliveries keeps them
 * here. Its stop is added before theirs, so it runs after them.
 */
export function openOutbox(deps: {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  stops: StopList;
}): Outbox {
  const outbox = new Outbox({
    store: deps.storage.openCollection<OutboxJob>('outbox'),
    clock: deps.clock,
    logger: deps.logger.child('outbox'),
  });
  deps.stops.add(() => outbox.stop());
  return outbox;
}
