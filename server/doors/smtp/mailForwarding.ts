import { toIsoWithOffset } from '../../clock/isoTime.js';
import type { IncomingMessageEvent } from '../../contract/domain/incoming.js';
import type { MessageRecord } from '../../contract/domain/message.js';
import type { AttemptOutcome, OutboxJob } from '../../contract/domain/outboxJob.js';
import type { Settings } from '../../contract/schemas/settingsSchema.js';
import type { Logger } from '../../logging/logger.js';
import type { EventBus } from '../../services/events/eventBus.js';
import type { Outbox } from '../../services/outbox/outbox.js';
import { jobOfStoredItem, type StoredItem } from '../../services/outbox/storedItem.js';

/** A mail owed to the configured addresses: a job of the outbox until the relay takes it. */
export interface ForwardedMail {
  subject: string;
  text: string;
  /** `<number>@<reply domain>`: a reply sent through the SMTP listener goes to that number. */
  replyTo?: string;
  /** RFC 5322 Message-ID: the same fact gives the same id, so a retried mail is recognisable. */
  messageId: string;
}

export type ForwardSettings = Settings['email_forward'];

/** A mail kept in the `email-outbox` collection before the one outbox. */
export type StoredMail = ForwardedMail & StoredItem;

export function jobOfStoredMail(stored: StoredMail): Omit<OutboxJob<ForwardedMail>, 'seq'> {
  const { subject, text, replyTo, messageId } = stored;
  const mail: ForwardedMail = { subject, text, messageId, ...(replyTo !== undefined ? { replyTo } : {}) };
  return jobOfStoredItem(stored, { kind: 'mail', lane: relayLane, payload: mail });
}

export interface MailForwardingDeps {
  outbox: Outbox;
  settings: () => ForwardSettings;
  events: EventBus;
  logger: Logger;
}

/** A relay that refuses for two days is given up on (hourly at the back-off's cap). */
const maxAttempts = 60;
/** One relay: mails go out oldest first, a few at a time. */
const relayLane = 'relay';

/**
 * SMS → e-mail (docs/email-and-smpp.md): incoming SMS, and by choice failed messages and
 * delivery reports, as mail through the configured SMTP relay (Nodemailer). Each mail is kept
 * in the commit of the fact that owes it (`EventBus.onRecord`, as the webhooks) and retried.
 */
export class MailForwarding {
  private readonly unsubscribe: (() => void)[] = [];
  private stopServing?: () => Promise<void>;

  constructor(private readonly deps: MailForwardingDeps) {}

  start(): void {
    const { events } = this.deps;
    this.stopServing = this.deps.outbox.serve<ForwardedMail>('mail', {
      lanes: { order: 'parallel', inFlight: 4 },
      attempt: async ([job]) => (job ? [await this.send(job.payload)] : []),
      maxAttempts: () => maxAttempts,
      describe: (job) => `mail "${job.payload.subject}"`,
    });
    this.unsubscribe.push(
      events.onRecord('message:received', (incoming) => {
        if (this.deps.settings().enabled) this.hold(this.incomingMail(incoming));
      }),
      events.onRecord('message:updated', ({ message, previousState }) => {
        const settings = this.deps.settings();
        if (!settings.enabled || message.state === previousState) return;
        const wanted =
          (message.state === 'Failed' && settings.forward_failures) ||
          (message.state === 'Delivered' && settings.forward_reports);
        if (wanted) this.hold(this.outcomeMail(message));
      }),
    );
  }

  async stop(): Promise<void> {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    await this.stopServing?.();
  }

  /** The settings' test button: one mail now, not kept; resolves with the relay's answer. */
  async sendTest(): Promise<string> {
    const settings = this.deps.settings();
    const missing = (['relay_host', 'from', 'to'] as const).filter((key) => settings[key] === null);
    if (missing.length > 0)
      throw new Error(`set ${missing.map((key) => `email_forward.${key}`).join(', ')} first`);
    const info = await (await transportOf(settings)).sendMail({
      from: settings.from ?? undefined,
      to: recipientsOf(settings),
      subject: 'Desktop SMS Gateway: test mail',
      text: 'Incoming SMS will arrive like this mail. A reply to them goes back as an SMS.',
    });
    return String(info.response);
  }

  private async send(mail: ForwardedMail): Promise<AttemptOutcome> {
    const settings = this.deps.settings();
    if (!settings.enabled) return { kind: 'wait', reason: 'forwarding to e-mail is off' };
    await (await transportOf(settings)).sendMail({
      from: settings.from ?? undefined,
      to: recipientsOf(settings),
      subject: mail.subject,
      text: mail.text,
      messageId: mail.messageId,
      ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    });
    return { kind: 'done' };
  }

  private incomingMail(incoming: IncomingMessageEvent): { key: string; mail: ForwardedMail } {
    const { reply_domain: domain } = this.deps.settings();
    const text =
      incoming.type === 'DATA_SMS'
        ? `A data SMS of ${Buffer.from(incoming.content, 'base64').length} bytes to port ${incoming.port ?? '?'}.`
        : incoming.content;
    return {
      key: `sms:${incoming.id}`,
      mail: {
        subject: `SMS from ${incoming.sender}`,
        text:
          `${text}\n\n-- \nReceived ${toIsoWithOffset(incoming.receivedAt)} by ${incoming.deviceId} (SIM ${incoming.simNumber}). ` +
          'Reply to this mail to answer by SMS.\n',
        replyTo: `${incoming.sender}@${domain}`,
        messageId: `<sms-${incoming.id}@${domain}>`,
      },
    };
  }

  private outcomeMail(message: MessageRecord): { key: string; mail: ForwardedMail } {
    const { reply_domain: domain } = this.deps.settings();
    const recipients = message.recipients
      .map(
        (recipient) =>
          `${recipient.phoneNumber}: ${recipient.state}${recipient.error ? ` (${recipient.error})` : ''}`,
      )
      .join('\n');
    const what = message.state === 'Failed' ? 'could not be sent' : 'was delivered';
    return {
      key: `${message.state}:${message.id}`,
      mail: {
        subject: `SMS ${message.id} ${what}`,
        text: `${recipients}\n`,
        messageId: `<${message.state.toLowerCase()}-${message.id}@${domain}>`,
      },
    };
  }

  /** Kept under the fact's own key, so the same fact kept twice is one mail. */
  private hold(mail: { key: string; mail: ForwardedMail }): void {
    this.deps.outbox
      .hold({ id: `mail:${mail.key}`, kind: 'mail', lane: relayLane, payload: mail.mail })
      .catch((error: unknown) =>
        this.deps.logger.error('a mail could not be kept', { error: String(error) }),
      );
  }
}

function recipientsOf(settings: ForwardSettings): string[] {
  return (settings.to ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

/** Nodemailer is loaded at the first mail: a gateway that forwards none never loads it. */
async function transportOf(settings: ForwardSettings) {
  const { default: nodemailer } = await import('nodemailer');
  return nodemailer.createTransport({
    host: settings.relay_host ?? undefined,
    port: settings.relay_port ?? 587,
    secure: settings.relay_secure === true,
    ...(settings.relay_username
      ? { auth: { user: settings.relay_username, pass: settings.relay_password ?? '' } }
      : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
}
