import { e164PeerKey, type PeerKey } from '../contract/domain/peerKey.js';
import { type Desk, openDesk } from '../services/desk/desk.js';
import { OptOutList } from '../services/desk/optOut/optOutList.js';
import { openReplyDesk, type ReplyDesk } from '../services/desk/replyDesk.js';
import type { MessageLifecycle } from '../services/messages/messageLifecycle.js';
import type { MessageService } from '../services/messages/messageService.js';
import type { CompositionContext } from './context.js';

export interface OptOuts {
  list: OptOutList;
  /** How the desk keys a phone number: E.164 with the settings' default country. */
  key: PeerKey;
}

/** The one opt-out list, there before the scheduler, which asks it before every send. */
export function openOptOuts({ storage, settings, events, clock }: CompositionContext): OptOuts {
  const key = e164PeerKey(() => settings.current().desk.default_country);
  const { db, commits } = storage.sqlite;
  return { list: new OptOutList(db, commits, { key, clock, events }), key };
}

export interface GatewayDesk {
  /** The address book and bulk sends. */
  desk: Desk;
  /** Conversations, opt-out keywords and auto-reply rules. */
  replyDesk: ReplyDesk;
}

/**
 * The desk for the staff, both of its sides heeding the one opt-out list. The reply
 * side follows incoming SMS from before the modems start.
 */
export async function startDesk(
  context: CompositionContext,
  deps: { lifecycle: MessageLifecycle; messages: MessageService; optOuts: OptOuts },
): Promise<GatewayDesk> {
  const { storage, settings, clock, logger } = context;
  const desk = openDesk({
    storage,
    settings,
    lifecycle: deps.lifecycle,
    messages: deps.messages,
    clock,
    logger,
    recipientFilters: [deps.optOuts.list],
  });
  const replyDesk = openReplyDesk({
    storage,
    messages: deps.messages,
    events: context.events,
    facts: context.facts,
    settings: () => settings.current(),
    key: deps.optOuts.key,
    optOuts: deps.optOuts.list,
    book: desk,
    clock,
    logger,
  });
  await replyDesk.start();
  context.stops.add(() => replyDesk.stop());
  return { desk, replyDesk };
}
