import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { EventBus } from '../services/events/eventBus.js';
import type { FactAnnouncer } from '../services/events/factAnnouncer.js';
import type { Outbox } from '../services/outbox/outbox.js';
import type { SettingsService } from '../services/settings/settingsService.js';
import type { Storage } from '../store/storage.js';
import type { StopList } from './stopList.js';

/**
 * What every composition step after the store is given: injected time, the one logger, the
 * event bus and its durable announcer, the one outbox, the store with the API's settings, and
 * the list a step adds its stops to.
 */
export interface CompositionContext {
  clock: Clock;
  logger: Logger;
  events: EventBus;
  /** Facts that owe deliveries, announced in a commit of the store (events/factAnnouncer.ts). */
  facts: FactAnnouncer;
  /** Every delivery owed outside, kept in the commit of its fact (outbox/outbox.ts). */
  outbox: Outbox;
  stops: StopList;
  storage: Storage;
  settings: SettingsService;
}
