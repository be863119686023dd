import type { Clock } from '../../clock/clock.js';
import type { Logger } from '../../logging/logger.js';
import { CoreReads } from '../../store/sqlite/coreReads.js';
import type { Storage } from '../../store/storage.js';
import type { MessageLifecycle } from '../messages/messageLifecycle.js';
import type { MessageService } from '../messages/messageService.js';
import type { SettingsService } from '../settings/settingsService.js';
import type { RecipientFilter } from './campaigns/audience.js';
import { CampaignRepository } from './campaigns/campaignRepository.js';
import { CampaignService } from './campaigns/campaignService.js';
import { ContactImport } from './contacts/contactImport.js';
import { ContactRepository } from './contacts/contactRepository.js';
import { GroupRepository } from './contacts/groupRepository.js';
import { type NumberReader, numberReader } from './numberReader.js';
import { TemplateRepository } from './templates/templateRepository.js';

/**
 * The desk: address book, templates and bulk sends, built on the gateway's database and queue
 * (their routes: server/doors/http/routes/desk/).
 */
export interface Desk {
  readonly contacts: ContactRepository;
  readonly groups: GroupRepository;
  readonly templates: TemplateRepository;
  readonly contactImport: ContactImport;
  readonly campaigns: CampaignService;
  /** Typed numbers → E.164 with the `desk.default_country` setting in force. */
  readonly readNumber: NumberReader;
}

export interface DeskDependencies {
  storage: Storage;
  settings: SettingsService;
  lifecycle: MessageLifecycle;
  messages: MessageService;
  clock: Clock;
  logger: Logger;
  /** Recipients removed before every bulk send (the opt-out list). */
  recipientFilters?: readonly RecipientFilter[];
}

export function openDesk(deps: DeskDependencies): Desk {
  const { db, commits } = deps.storage.sqlite;
  const contacts = new ContactRepository(db, commits, deps.clock);
  const groups = new GroupRepository(db, commits);
  const templates = new TemplateRepository(db, commits, deps.clock);
  const readNumber = numberReader(() => deps.settings.current().desk.default_country);
  return {
    contacts,
    groups,
    templates,
    readNumber,
    contactImport: new ContactImport({ contacts, groups, readNumber }),
    campaigns: new CampaignService({
      contacts,
      groups,
      readNumber,
      filters: deps.recipientFilters ?? [],
      campaigns: new CampaignRepository(db, commits, new CoreReads(db)),
      messages: deps.messages,
      messageRepository: deps.storage.messages,
      lifecycle: deps.lifecycle,
      clock: deps.clock,
      logger: deps.logger.child('campaigns'),
    }),
  };
}
