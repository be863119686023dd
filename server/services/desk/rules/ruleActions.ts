import type { IncomingMessageEvent } from '../../../contract/domain/incoming.js';
import type { MessageRecord } from '../../../contract/domain/message.js';
import type { PeerKey } from '../../../contract/domain/peerKey.js';
import {
  missingText,
  type Rendered,
  recipientFields,
  renderPlaceholders,
} from '../../../contract/domain/placeholders.js';
import { ErrorCode, GatewayError, isGatewayError } from '../../../errors/gatewayError.js';
import type { ContactRepository } from '../contacts/contactRepository.js';
import type { GroupRepository } from '../contacts/groupRepository.js';
import type { DeskSend } from '../deskSender.js';
import type { TemplateRepository } from '../templates/templateRepository.js';
import type { AutoReplyRule } from './ruleBook.js';

/** The address book and templates (desk.ts) as the rules use them. */
export interface AddressBook {
  contacts: ContactRepository;
  groups: GroupRepository;
  templates: TemplateRepository;
}

type RuleAction = AutoReplyRule['action'];

/** An SMS an action sends: to whom, and the exact text. */
export interface OutgoingText {
  to: string;
  text: string;
}

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

  /**
   * The message sent, or undefined for an action that sends nothing; `inSameCommit` is given the
   * message in the turn that stores it (`DeskText.inSameCommit`).
   */
  async perform(
    action: RuleAction,
    incoming: IncomingMessageEvent,
    inSameCommit?: (message: MessageRecord) => void,
  ): Promise<MessageRecord | undefined> {
    if (action.kind === 'addToGroup') {
      await this.addToGroup(incoming.sender, action.groupId);
      return undefined;
    }
    const outgoing = this.outgoing(action, { sender: incoming.sender, content: incoming.content });
    return (
      outgoing &&
      this.deps.send({
        ...outgoing,
        deviceId: incoming.deviceId,
        simNumber: incoming.simNumber,
        ...(inSameCommit ? { inSameCommit } : {}),
      })
    );
  }

  /**
   * The SMS `action` sends in answer to `incoming`, its placeholders filled (what the rule tester
   * shows and `perform` sends); undefined for an action that texts no one. A placeholder the
   * sender cannot fill is a 400 naming the action's field.
   */
  outgoing(action: RuleAction, incoming: { sender: string; content: string }): OutgoingText | undefined {
    switch (action.kind) {
      case 'reply':
        return { to: incoming.sender, text: this.replyText(action, incoming.sender) };
      case 'forward':
        return { to: action.phoneNumber, text: `From ${incoming.sender}: ${incoming.content}` };
      case 'addToGroup':
        return undefined;
    }
  }

  /**
   * The placeholders of `action`'s reply that `sender` cannot fill (no contact, no fallback):
   * such a reply is not sent. Empty for one that can be, and for other actions.
   */
  unfilled(action: RuleAction, sender: string): string[] {
    if (action.kind !== 'reply') return [];
    const { rendered } = this.renderReply(action, sender);
    return rendered.ok ? [] : rendered.missing;
  }

  /** A reply's text (typed in the rule or a template's) with `{name}` and `{phone}` filled. */
  private replyText(action: Extract<RuleAction, { kind: 'reply' }>, sender: string): string {
    const { rendered, field } = this.renderReply(action, sender);
    if (!rendered.ok) {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        `${field}: no value for ${missingText(rendered.missing)} from ${sender}, who is not in the address book`,
        { field },
      );
    }
    return rendered.text;
  }

  private renderReply(
    action: Extract<RuleAction, { kind: 'reply' }>,
    sender: string,
  ): { rendered: Rendered; field: string } {
    const template =
      action.templateId === undefined ? undefined : this.deps.book.templates.get(action.templateId);
    const text = template ? template.text : (action.text ?? '');
    const contact = this.deps.book.contacts.findByNumber(this.deps.key(sender));
    return {
      rendered: renderPlaceholders(text, recipientFields(sender, contact?.name)),
      field: template ? 'action.templateId' : 'action.text',
    };
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
