import type { IncomingMessageEvent } from '../../domain/incoming.js';
import type { MessageRecord } from '../../domain/message.js';
import { ErrorCode, GatewayError, isGatewayError } from '../../errors/gatewayError.js';
import type { ContactRepository } from '../contacts/contactRepository.js';
import type { GroupRepository } from '../contacts/groupRepository.js';
import type { DeskSend } from '../deskSender.js';
import type { PeerKey } from '../peerKey.js';
import { renderPlaceholders } from '../templates/placeholders.js';
import type { TemplateRepository } from '../templates/templateRepository.js';
import type { AutoReplyRule } from './ruleBook.js';

/** The address book and templates (desk.ts) as the rules use them. */
export interface AddressBook {
  contacts: ContactRepository;
  groups: GroupRepository;
  templates: TemplateRepository;
}

type RuleAction = AutoReplyRule['action'];

/** What a rule's action does with one incoming SMS. */
export class RuleActions {
  constructor(private readonly deps: { book: AddressBook; send: DeskSend; key: PeerKey }) {}

  /** Only actions that text someone are held by loop protection; adding to a group is not. */
  sends(action: RuleAction): boolean {
    return action.kind !== 'addToGroup';
  }

  /** A rule naming a template or group that does not exist is refused (400 naming the field). */
  checkReferences(action: RuleAction): void {
    const reference =
      action.kind === 'reply' && action.templateId !== undefined
        ? { field: 'action.templateId', check: () => this.deps.book.templates.get(action.templateId ?? '') }
        : action.kind === 'addToGroup'
          ? { field: 'action.groupId', check: () => this.deps.book.groups.get(action.groupId) }
          : undefined;
    if (!reference) return;
    try {
      reference.check();
    } catch (error) {
      if (!isGatewayError(error, ErrorCode.NotFound)) throw error;
      throw new GatewayError(ErrorCode.ValidationFailed, `${reference.field}: ${error.message}`, {
        field: reference.field,
      });
    }
  }

  /** The message sent, or undefined for an action that sends nothing. */
  async perform(action: RuleAction, incoming: IncomingMessageEvent): Promise<MessageRecord | undefined> {
    const from = { deviceId: incoming.deviceId, simNumber: incoming.simNumber };
    switch (action.kind) {
      case 'reply':
        return this.deps.send({
          to: incoming.sender,
          text: this.replyText(action, incoming.sender),
          ...from,
        });
      case 'forward':
        return this.deps.send({
          to: action.phoneNumber,
          text: `From ${incoming.sender}: ${incoming.content}`,
          ...from,
        });
      case 'addToGroup':
        await this.addToGroup(incoming.sender, action.groupId);
        return undefined;
    }
  }

  private replyText(action: Extract<RuleAction, { kind: 'reply' }>, sender: string): string {
    if (action.templateId === undefined) return action.text;
    const template = this.deps.book.templates.get(action.templateId);
    const contact = this.deps.book.contacts.findByNumber(this.deps.key(sender));
    const rendered = renderPlaceholders(template.text, { phone: sender, name: contact?.name ?? '' });
    if (!rendered.ok) {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        `template ${template.name} needs ${rendered.missing.join(', ')}, which an incoming SMS does not give`,
        { field: 'action.templateId' },
      );
    }
    return rendered.text;
  }

  /** A sender not in the address book joins it under their number. */
  private async addToGroup(sender: string, groupId: string): Promise<void> {
    const { contacts } = this.deps.book;
    const phoneNumber = this.deps.key(sender);
    const contact = contacts.findByNumber(phoneNumber);
    if (!contact) {
      await contacts.create({ phoneNumber, name: phoneNumber, groupIds: [groupId] });
      return;
    }
    if (contact.groupIds.includes(groupId)) return;
    await contacts.replace(contact.id, {
      phoneNumber,
      name: contact.name,
      notes: contact.notes,
      groupIds: [...contact.groupIds, groupId],
    });
  }
}
