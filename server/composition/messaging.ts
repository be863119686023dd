import type { DeviceDirectory } from '../devices/pool/deviceDirectory.js';
import type { AppQuotas } from '../services/auth/appQuotas.js';
import { InboxReplay } from '../services/inbox/inboxReplay.js';
import { InboxService } from '../services/inbox/inboxService.js';
import { MessageLifecycle } from '../services/messages/messageLifecycle.js';
import { MessageService, type QueueWatcher } from '../services/messages/messageService.js';
import { overdueReports } from '../services/messages/overdueReports.js';
import type { CompositionContext } from './context.js';

export interface MessageRecords {
  /** Every state change of an outgoing message (the modems report into it). */
  lifecycle: MessageLifecycle;
  /** Where received SMS end up (multipart reassembly first). */
  inbox: InboxService;
}

/**
 * The rules of the stored messages, before the modems, which report sends, delivery
 * reports and incoming SMS into them. The inbox is started later (`inbox.start()`), once the
 * webhook dispatcher listens: restored parts may complete at once.
 */
export function composeMessageRecords(
  { storage, events, clock, logger }: CompositionContext,
  /** The app whose message a number received last: the app a received message replies to. */
  lastAppTo?: (phoneNumber: string) => string | undefined,
): MessageRecords {
  return {
    lifecycle: new MessageLifecycle(storage.messages, events, clock, logger.child('messages')),
    inbox: new InboxService({
      repository: storage.inbox,
      events,
      pendingParts: storage.pendingParts,
      clock,
      logger,
      ...(lastAppTo === undefined ? {} : { lastAppTo }),
    }),
  };
}

export interface Messaging {
  /** The one queue service: the API, the desk's replies, fleet mode and call answers share it. */
  messages: MessageService;
  /** POST /inbox/refresh and the inbox export. */
  inboxReplay: InboxReplay;
  /** Per device, the delivery reports overdue (GET /devices). */
  overdueReports: () => ReturnType<typeof overdueReports>;
}

/**
 * The services over the queue and the inbox, once the devices and the scheduler exist.
 * One `MessageService` keeps one sequence of message numbers for every sender.
 */
export function composeMessaging(
  context: CompositionContext,
  deps: {
    lifecycle: MessageLifecycle;
    devices: DeviceDirectory;
    scheduler: QueueWatcher;
    quotas: AppQuotas;
    maxPendingMessages: number;
  },
): Messaging {
  const { storage, events, clock, logger } = context;
  const { devices } = deps;
  return {
    messages: new MessageService(
      {
        repository: storage.messages,
        lifecycle: deps.lifecycle,
        devices,
        events,
        clock,
        logger: logger.child('messages'),
        scheduler: deps.scheduler,
        quotas: deps.quotas,
      },
      { maxPendingMessages: deps.maxPendingMessages },
    ),
    inboxReplay: new InboxReplay({
      inbox: storage.inbox,
      devices,
      events,
      clock,
      logger: logger.child('http').child('inbox'),
    }),
    overdueReports: () => overdueReports(storage.messages, clock),
  };
}
