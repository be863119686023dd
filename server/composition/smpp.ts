import type { SubmitMemo } from '../doors/smpp/deliveryReceipt.js';
import { jobOfStoredDelivery, SmppDeliveries, type StoredDelivery } from '../doors/smpp/smppDeliveries.js';
import { startSmppServer } from '../doors/smpp/smppServer.js';
import type { SmppSession } from '../doors/smpp/smppSession.js';
import { type HeldParts, type RecentSubmit, SmppSubmissions } from '../doors/smpp/smppSubmissions.js';
import type { AccessControl } from '../services/auth/accessControl.js';
import type { RecordSubmission } from '../services/auth/submissionRecord.js';
import { createMessageIdGenerator } from '../services/messages/messageId.js';
import type { MessageService } from '../services/messages/messageService.js';
import { type SwitchedListener, startSwitchedListener } from '../services/settings/switchedListener.js';
import type { IncomingRule } from '../services/webhooks/webhookAudience.js';
import type { CompositionContext } from './context.js';
import { listenError } from './http.js';

/** The deliver_sm deliveries and the sessions they go to, which the SMPP server, once on, fills. */
export interface SmppOutbox {
  deliveries: SmppDeliveries;
  sessions: Set<SmppSession>;
}

/**
 * The deliver_sm deliveries, a listener: started with the webhooks, before anything can raise an
 * incoming SMS or a message update, so that none is missed while the SMPP server is on.
 */
export async function startSmppOutbox(
  context: CompositionContext,
  deps: {
    hearsIncoming: IncomingRule;
    receivingNumber: (deviceId: string, simNumber: number) => string | undefined;
  },
): Promise<SmppOutbox> {
  const { storage, settings, outbox } = context;
  await outbox.adopt(storage.openCollection<StoredDelivery>('smpp-outbox'), jobOfStoredDelivery);
  const sessions = new Set<SmppSession>();
  const deliveries = new SmppDeliveries({
    outbox,
    memos: storage.openCollection<SubmitMemo>('smpp-memos'),
    receivers: () => [...sessions],
    hearsIncoming: deps.hearsIncoming,
    receivingNumber: deps.receivingNumber,
    // MO messages are kept for receivers only while the server is on; receipts for every submit.
    forwardIncoming: () => settings.current().smpp.enabled === true,
    incomingAsParts: () => settings.current().smpp.mo_as_parts === true,
    events: context.events,
    clock: context.clock,
    logger: context.logger.child('smpp'),
  });
  deliveries.start();
  context.stops.add(() => deliveries.stop());
  return { deliveries, sessions };
}

/** The SMPP server (server/doors/smpp/): off by default; 127.0.0.1:2775, every interface only with `smpp.allow_lan`. */
export function startSmpp(
  context: CompositionContext,
  deps: {
    accessControl: AccessControl;
    messages: MessageService;
    outbox: SmppOutbox;
    recordSubmission: RecordSubmission;
  },
): SwitchedListener {
  const { storage, settings, clock } = context;
  const logger = context.logger.child('smpp');
  const submissions = new SmppSubmissions({
    messages: deps.messages,
    heldParts: storage.openCollection<HeldParts>('smpp-held-parts'),
    recentSubmits: storage.openCollection<RecentSubmit>('smpp-recent-submits'),
    rememberSubmit: (memo) => deps.outbox.deliveries.rememberSubmit(memo),
    newMessageId: createMessageIdGenerator(() => clock.now()),
    defaultCountry: () => settings.current().desk.default_country ?? undefined,
    clock,
    logger,
  });
  return startSwitchedListener(context, {
    name: 'the SMPP server',
    configOf: ({ smpp }) =>
      smpp.enabled ? { host: smpp.allow_lan ? '0.0.0.0' : '127.0.0.1', port: smpp.port ?? 2775 } : undefined,
    start: async (config) => {
      const server = await startSmppServer(config, {
        accessControl: deps.accessControl,
        clock,
        submissions,
        recordSubmission: deps.recordSubmission,
        receiverReady: () => deps.outbox.deliveries.pump(),
        sessions: deps.outbox.sessions,
        logger,
        listenError: (error) => listenError(error, config),
      });
      return server;
    },
  });
}
