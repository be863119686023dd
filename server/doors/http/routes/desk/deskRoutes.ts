import type { Desk } from '../../../../services/desk/desk.js';
import type { ReplyDesk } from '../../../../services/desk/replyDesk.js';
import type { MessageService } from '../../../../services/messages/messageService.js';
import type { ApiBuilder } from '../../defineRoute.js';
import { registerCampaignRoutes } from './campaignRoutes.js';
import { registerContactRoutes } from './contactRoutes.js';
import { registerConversationRoutes } from './conversationRoutes.js';
import { registerOptOutRoutes } from './optOutRoutes.js';
import { registerRuleRoutes } from './ruleRoutes.js';
import { registerTemplateRoutes } from './templateRoutes.js';

/** The desk's routes (docs/desk.md): address book, templates, campaigns, conversations, opt-outs, rules. */
export function registerDeskRoutes(
  api: ApiBuilder,
  deps: { desk: Desk; replyDesk: ReplyDesk; messages: MessageService; now: () => number },
): void {
  const { desk, replyDesk } = deps;
  registerContactRoutes(api, desk);
  registerTemplateRoutes(api, desk);
  registerCampaignRoutes(api, desk);
  registerConversationRoutes(api, {
    conversations: replyDesk.conversations,
    namesOf: (numbers) => desk.contacts.namesOf(numbers),
    messageView: (message) => deps.messages.view(message),
  });
  registerOptOutRoutes(api, replyDesk);
  registerRuleRoutes(api, {
    rules: replyDesk.rules,
    actions: replyDesk.actions,
    patterns: replyDesk.trialPatterns,
    now: deps.now,
  });
}
