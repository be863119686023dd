import { getCountries, getCountryCallingCode } from 'libphonenumber-js';
import { z } from 'zod';
import {
  LimitPeriods,
  MailTextSources,
  ProcessingOrders,
  SimSelectionModes,
  settingGroups,
} from '../../../server/contract/schemas/settingsSchema.js';

/**
 * Every setting of GET/PATCH /settings as the Settings screen shows it, by section: meaning,
 * default, input kind (the form's rules are in settingFields.ts). Bounds, enum values and the
 * time format come from the server's own schema (server/contract/schemas/settingsSchema.ts), so the form
 * and PATCH /settings cannot disagree.
 */
export type SettingKind = 'integer' | 'enum' | 'boolean' | 'secret' | 'url' | 'time' | 'text';

export interface SettingField {
  group: string;
  key: string;
  label: string;
  meaning: string;
  kind: SettingKind;
  /** Shown as "Default: …"; the server applies it when the value is null. */
  defaultLabel: string;
  unit?: string;
  min?: number;
  max?: number;
  options?: readonly { value: string; label: string }[];
}

/** The sections a bridge's state and test button sit in (SettingsScreen), by bridge. */
export const bridgeSectionTitles = {
  smtp: 'E-mail to SMS (SMTP listener)',
  email: 'SMS to e-mail',
  smpp: 'SMPP server',
} as const;

/** The bridge whose panel sits under a section, if any. */
export function bridgeOfSection(title: string): keyof typeof bridgeSectionTitles | undefined {
  return (Object.keys(bridgeSectionTitles) as (keyof typeof bridgeSectionTitles)[]).find(
    (name) => bridgeSectionTitles[name] === title,
  );
}

/** The section the fleet status panel sits in (SettingsScreen). */
export const fleetSectionTitle = 'Fleet mode (private server)';

const sections: readonly { title: string; fields: readonly SettingField[] }[] = [
  {
    title: 'Sending',
    fields: [
      {
        group: 'messages',
        key: 'send_interval_min',
        label: 'Pause between messages, at least',
        meaning:
          'The gateway waits a random time between this and the maximum before each SMS, so the operator does not flag the SIM as a spammer.',
        kind: 'integer',
        unit: 'seconds',
        defaultLabel: 'no pause',
      },
      {
        group: 'messages',
        key: 'send_interval_max',
        label: 'Pause between messages, at most',
        meaning: 'Upper end of the random pause. Must not be below the minimum.',
        kind: 'integer',
        unit: 'seconds',
        defaultLabel: 'no pause',
      },
      {
        group: 'messages',
        key: 'limit_period',
        label: 'Sending limit period',
        meaning: 'Counts messages over this sliding window; with “Disabled” there is no limit.',
        kind: 'enum',
        options: optionsOf(LimitPeriods, {
          Disabled: 'Disabled',
          PerMinute: 'Per minute',
          Per30Minutes: 'Per 30 minutes',
          PerHour: 'Per hour',
          PerDay: 'Per day',
        }),
        defaultLabel: 'Disabled',
      },
      {
        group: 'messages',
        key: 'limit_value',
        label: 'Messages allowed per period',
        meaning:
          'More messages than this within the period wait in the queue. Priority 100 and above ignores the limit.',
        kind: 'integer',
        defaultLabel: 'none',
      },
      {
        group: 'messages',
        key: 'sim_selection_mode',
        label: 'SIM choice',
        meaning:
          'Which SIM sends a message that names none: the modem’s default, each in turn, or at random.',
        kind: 'enum',
        options: optionsOf(SimSelectionModes, {
          OSDefault: 'Modem default',
          RoundRobin: 'Each in turn (round robin)',
          Random: 'Random',
        }),
        defaultLabel: 'Modem default',
      },
      {
        group: 'messages',
        key: 'processing_order',
        label: 'Order of equal-priority messages',
        meaning: 'LIFO sends the newest first (the upstream default); FIFO sends the oldest first.',
        kind: 'enum',
        options: optionsOf(ProcessingOrders, { LIFO: 'Newest first (LIFO)', FIFO: 'Oldest first (FIFO)' }),
        defaultLabel: 'Newest first (LIFO)',
      },
      {
        group: 'messages',
        key: 'log_lifetime_days',
        label: 'Keep message history',
        meaning: 'Sent, delivered and failed messages older than this are deleted.',
        kind: 'integer',
        unit: 'days',
        defaultLabel: 'forever',
      },
      {
        group: 'incoming',
        key: 'lifetime_days',
        label: 'Keep received messages',
        meaning: 'Received SMS and data SMS older than this are deleted from the inbox.',
        kind: 'integer',
        unit: 'days',
        defaultLabel: 'forever',
      },
      {
        group: 'messages',
        key: 'work_hours_enabled',
        label: 'Send only during working hours',
        meaning:
          'Messages wait in the queue outside the hours below (this computer’s time zone). Priority 100 and above is sent at any hour.',
        kind: 'boolean',
        defaultLabel: 'off',
      },
      {
        group: 'messages',
        key: 'work_hours_start',
        label: 'Working hours start',
        meaning: 'First minute sending is allowed. A start after the end spans midnight (22:00–06:00).',
        kind: 'time',
        defaultLabel: 'none',
      },
      {
        group: 'messages',
        key: 'work_hours_end',
        label: 'Working hours end',
        meaning: 'Sending stops at this time.',
        kind: 'time',
        defaultLabel: 'none',
      },
    ],
  },
  {
    title: 'Health and logs',
    fields: [
      {
        group: 'ping',
        key: 'interval_seconds',
        label: 'Ping interval',
        meaning: 'How often the gateway sends the system:ping webhook event, to show it is alive.',
        kind: 'integer',
        unit: 'seconds',
        defaultLabel: 'off',
      },
      {
        group: 'logs',
        key: 'lifetime_days',
        label: 'Keep logs',
        meaning: 'Log entries older than this are deleted.',
        kind: 'integer',
        unit: 'days',
        defaultLabel: '30 days',
      },
      {
        group: 'metrics',
        key: 'enabled',
        label: 'Serve Prometheus metrics',
        meaning:
          'GET /metrics answers in the Prometheus text format: queue, sends, modems, SIM plans, webhooks and the process. A scraper needs a token with the metrics:read scope (API access); off, the path answers 404.',
        kind: 'boolean',
        defaultLabel: 'off',
      },
      {
        group: 'mcp',
        key: 'confirm_sends',
        label: 'AI agents confirm each send',
        meaning:
          'An agent connected over MCP first gets a draft from send_sms (recipients, text, SMS parts) and sends it with confirm_send once its user agreed. Off, send_sms sends at once.',
        kind: 'boolean',
        defaultLabel: 'on',
      },
    ],
  },
  {
    title: 'Webhooks',
    fields: [
      {
        group: 'webhooks',
        key: 'internet_required',
        label: 'Wait for internet before delivering',
        meaning: 'Hold webhook deliveries while the computer is offline instead of spending retries.',
        kind: 'boolean',
        defaultLabel: 'on',
      },
      {
        group: 'webhooks',
        key: 'allow_lan_http',
        label: 'Allow plain http:// webhooks on the local network',
        meaning:
          "Lets webhooks use http:// to private addresses (192.168.x.x, 10.x.x.x, *.local), e.g. Home Assistant's internal URL. Message texts then cross your LAN unencrypted.",
        kind: 'boolean',
        defaultLabel: 'off',
      },
      {
        group: 'webhooks',
        key: 'retry_count',
        label: 'Retries per delivery',
        meaning: 'How often a failed delivery is tried again, with a growing pause (5 s, 10 s, 20 s …).',
        kind: 'integer',
        defaultLabel: '1',
      },
      {
        group: 'webhooks',
        key: 'signing_key',
        label: 'Signing key',
        meaning:
          'Each delivery carries X-Signature, an HMAC-SHA256 of the body and X-Timestamp with this key. Never shown again once set.',
        kind: 'secret',
        defaultLabel: 'none',
      },
    ],
  },
  {
    title: 'Devices on the network',
    fields: [
      {
        group: 'network',
        key: 'allow_private_targets',
        label: 'Allow devices on this computer and the local network',
        meaning:
          'Lets modems behind serial servers (tcp://), HiLink sticks and Android phones on Wi-Fi be added at private addresses (192.168.x.x, 10.x.x.x, 127.0.0.1 …). Off, an address given on the Modems screen or through the API cannot make the gateway connect to services of this computer or your network.',
        kind: 'boolean',
        defaultLabel: 'off',
      },
    ],
  },
  {
    title: 'Phone numbers',
    fields: [
      {
        group: 'desk',
        key: 'default_country',
        label: 'Default country',
        meaning:
          'Numbers typed without + (0171 1234567, (555) 123-4567) in Compose, Contacts and CSV imports are read as numbers of this country. Set from this computer’s language settings at first start.',
        kind: 'enum',
        options: countryOptions(),
        defaultLabel: 'none: numbers need a +',
      },
    ],
  },
  {
    title: 'Encryption',
    fields: [
      {
        group: 'encryption',
        key: 'passphrase',
        label: 'End-to-end passphrase',
        meaning: 'Decrypts messages that clients send with isEncrypted: true. Never shown again once set.',
        kind: 'secret',
        defaultLabel: 'none',
      },
    ],
  },
  {
    title: fleetSectionTitle,
    fields: [
      {
        group: 'gateway',
        key: 'cloud_url',
        label: 'Private server address',
        meaning:
          'The device API of an SMS Gateway private server, e.g. https://sms.example.com/api/mobile/v1. With the address and the registration credential set, this gateway works as one of the server’s devices: it sends the messages the server gives it and reports their states (fleet mode). https:// unless the server runs on this computer.',
        kind: 'url',
        defaultLabel: 'none (fleet mode off)',
      },
      {
        group: 'gateway',
        key: 'private_token',
        label: 'Registration credential',
        meaning:
          'The server’s private key; or “Basic login:password” of an existing user; or “Code 123456”, a one-time code of that user. Changing it registers the gateway again. Never shown again once set.',
        kind: 'secret',
        defaultLabel: 'none',
      },
    ],
  },
  {
    title: bridgeSectionTitles.smtp,
    fields: [
      {
        group: 'smtp',
        key: 'enabled',
        label: 'Accept e-mail as SMS',
        meaning:
          'Programs that can only send e-mail (booking, monitoring, CRM) send to <number>@any-domain through this computer, logged in with the gateway’s user or an API token that may send messages. The mail is queued like any message.',
        kind: 'boolean',
        defaultLabel: 'off',
      },
      {
        group: 'smtp',
        key: 'port',
        label: 'SMTP port',
        meaning: 'The port mail programs connect to.',
        kind: 'integer',
        defaultLabel: '2525',
      },
      {
        group: 'smtp',
        key: 'allow_lan',
        label: 'Accept mail from the local network',
        meaning:
          'Off, only programs on this computer can connect. Set a certificate below so logins cross the network encrypted.',
        kind: 'boolean',
        defaultLabel: 'off',
      },
      {
        group: 'smtp',
        key: 'text_source',
        label: 'SMS text from',
        meaning: 'Which part of the mail becomes the SMS. An HTML-only mail is turned into plain text.',
        kind: 'enum',
        options: optionsOf(MailTextSources, {
          body: 'The body',
          subject: 'The subject',
          subject_and_body: 'The subject, then the body',
        }),
        defaultLabel: 'The body',
      },
      {
        group: 'smtp',
        key: 'cut_marker',
        label: 'Cut the body at',
        meaning:
          'A line starting with this ends the text: a signature or a quoted reply below it is not sent. Quoted lines (">") always end it.',
        kind: 'text',
        defaultLabel: '"-- " (the signature line)',
      },
      {
        group: 'smtp',
        key: 'max_parts',
        label: 'Longest text',
        meaning:
          'A mail whose text needs more SMS parts than this is refused with a clear error to the sender.',
        kind: 'integer',
        unit: 'SMS parts',
        defaultLabel: '10',
      },
      {
        group: 'smtp',
        key: 'tls_cert_file',
        label: 'STARTTLS certificate file',
        meaning:
          'A PEM certificate (with its chain) on this computer. With the key below, mail programs can encrypt, and must before they log in.',
        kind: 'text',
        defaultLabel: 'none: no STARTTLS',
      },
      {
        group: 'smtp',
        key: 'tls_key_file',
        label: 'STARTTLS key file',
        meaning: 'The certificate’s PEM private key on this computer.',
        kind: 'text',
        defaultLabel: 'none',
      },
    ],
  },
  {
    title: bridgeSectionTitles.email,
    fields: [
      {
        group: 'email_forward',
        key: 'enabled',
        label: 'Forward incoming SMS by e-mail',
        meaning:
          'Each incoming SMS is mailed to the addresses below through your mail server, and retried while it is unreachable. A reply to such a mail, sent through this gateway’s SMTP listener, goes back as an SMS.',
        kind: 'boolean',
        defaultLabel: 'off',
      },
      {
        group: 'email_forward',
        key: 'relay_host',
        label: 'Mail server (SMTP relay)',
        meaning: 'The outgoing mail server, e.g. smtp.example.com.',
        kind: 'text',
        defaultLabel: 'none',
      },
      {
        group: 'email_forward',
        key: 'relay_port',
        label: 'Mail server port',
        meaning: '587 for submission with STARTTLS, 465 for TLS from the start, 25 inside a network.',
        kind: 'integer',
        defaultLabel: '587',
      },
      {
        group: 'email_forward',
        key: 'relay_secure',
        label: 'TLS from the start (port 465)',
        meaning: 'Off, the connection is encrypted with STARTTLS when the server offers it.',
        kind: 'boolean',
        defaultLabel: 'off',
      },
      {
        group: 'email_forward',
        key: 'relay_username',
        label: 'Mail server user',
        meaning: 'Leave empty when the server takes mail without a login.',
        kind: 'text',
        defaultLabel: 'none',
      },
      {
        group: 'email_forward',
        key: 'relay_password',
        label: 'Mail server password',
        meaning: 'Never shown again once set.',
        kind: 'secret',
        defaultLabel: 'none',
      },
      {
        group: 'email_forward',
        key: 'from',
        label: 'Sender address',
        meaning: 'The From of every forwarded mail; your mail server must allow it.',
        kind: 'text',
        defaultLabel: 'none',
      },
      {
        group: 'email_forward',
        key: 'to',
        label: 'Recipients',
        meaning: 'Where forwarded mail goes; several addresses separated by commas.',
        kind: 'text',
        defaultLabel: 'none',
      },
      {
        group: 'email_forward',
        key: 'forward_failures',
        label: 'Also mail failed messages',
        meaning: 'A mail for every outgoing message that could not be sent.',
        kind: 'boolean',
        defaultLabel: 'off',
      },
      {
        group: 'email_forward',
        key: 'forward_reports',
        label: 'Also mail delivery reports',
        meaning: 'A mail for every outgoing message the network reports delivered.',
        kind: 'boolean',
        defaultLabel: 'off',
      },
      {
        group: 'email_forward',
        key: 'reply_domain',
        label: 'Reply domain',
        meaning:
          'Forwarded mail has Reply-To <sender’s number>@this domain, so that a reply names the number to answer.',
        kind: 'text',
        defaultLabel: 'sms.gateway',
      },
    ],
  },
  {
    title: bridgeSectionTitles.smpp,
    fields: [
      {
        group: 'smpp',
        key: 'enabled',
        label: 'Run the SMPP server',
        meaning:
          'Software that speaks SMPP 3.4 binds with an SMPP login (yours below; others’ on the People screen), submits messages to the same queue and receives incoming SMS and delivery receipts. A client that sends longer fields than SMPP 3.4 allows may bind with a person’s or app’s own login, or with an API token as the password.',
        kind: 'boolean',
        defaultLabel: 'off',
      },
      {
        group: 'smpp',
        key: 'port',
        label: 'SMPP port',
        meaning: 'The port SMPP clients connect to.',
        kind: 'integer',
        defaultLabel: '2775',
      },
      {
        group: 'smpp',
        key: 'allow_lan',
        label: 'Accept SMPP clients from the local network',
        meaning:
          'Off, only programs on this computer can connect. SMPP has no encryption: passwords cross the network in clear.',
        kind: 'boolean',
        defaultLabel: 'off',
      },
      {
        group: 'smpp',
        key: 'mo_as_parts',
        label: 'Deliver long incoming SMS in parts',
        meaning:
          'Off, a long incoming SMS reaches SMPP clients whole (in message_payload when it is long). On, as one deliver_sm per SMS part with a concatenation header, for clients that join parts themselves.',
        kind: 'boolean',
        defaultLabel: 'off',
      },
    ],
  },
  {
    title: 'Opt-out and auto-reply',
    fields: [
      {
        group: 'opt_out',
        key: 'keywords',
        label: 'Opt-out keywords',
        meaning:
          'An incoming SMS whose whole text is one of these words (any case, separated by commas) puts the sender on the opt-out list.',
        kind: 'text',
        defaultLabel: 'STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT',
      },
      {
        group: 'opt_out',
        key: 'start_keywords',
        label: 'Opt-in keywords',
        meaning:
          'An incoming SMS whose whole text is one of these words takes the sender off the list again.',
        kind: 'text',
        defaultLabel: 'START',
      },
      {
        group: 'opt_out',
        key: 'confirmation_text',
        label: 'Opt-out confirmation',
        meaning: 'Sent once to a number that has just opted out, from the modem and SIM it wrote to.',
        kind: 'text',
        defaultLabel: 'no confirmation',
      },
      {
        group: 'auto_reply',
        key: 'reply_period_minutes',
        label: 'Auto-reply at most once per',
        meaning:
          'Each rule answers one sender at most once in this period, so two gateways or an auto-responder cannot loop.',
        kind: 'integer',
        unit: 'minutes',
        defaultLabel: '60',
      },
    ],
  },
];

/** The sections with each integer field's bounds taken from the server's schema. */
export const settingSections = sections.map((section) => ({
  ...section,
  fields: section.fields.map((field) =>
    field.kind === 'integer' ? { ...field, ...boundsOf(field) } : field,
  ),
}));

/** `min`/`max` of the setting's zod number schema: the bounds PATCH /settings enforces. */
function boundsOf(field: SettingField): { min?: number; max?: number } {
  const schema = serverSchemaOf(field);
  if (!(schema instanceof z.ZodNumber)) throw new Error(`${fieldPath(field)} is not a number setting`);
  return { min: schema.minValue ?? undefined, max: schema.maxValue ?? undefined };
}

/** The server's zod schema of a setting: what PATCH /settings checks its value against. */
export function serverSchemaOf(field: SettingField): z.ZodType {
  const schema = (settingGroups as Record<string, Record<string, z.ZodType> | undefined>)[field.group]?.[
    field.key
  ];
  if (!schema) throw new Error(`the server has no setting ${fieldPath(field)}`);
  return schema;
}

/** The server's list of values, each with its label (a value without one does not type-check). */
function optionsOf<V extends string>(
  values: readonly V[],
  labels: Record<V, string>,
): { value: string; label: string }[] {
  return values.map((value) => ({ value, label: labels[value] }));
}

/** Every country with a calling code, by its name in the UI's language. */
export function countryOptions(): { value: string; label: string }[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  return getCountries()
    .map((code) => ({ value: code, label: `${names.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

export const allSettingFields: readonly SettingField[] = settingSections.flatMap((section) => section.fields);

/**
 * Settings the API accepts for the ecosystem's clients that change nothing on a PC, so the
 * window does not offer them: each with the reason.
 */
export const settingsWithoutEffectHere: Readonly<Record<string, string>> = {
  'receiver.content_provider_enabled': 'an Android phone’s SMS database; a modem has none',
  'gateway.notification_channel': 'FCM or SSE for an Android phone; a PC always listens by SSE',
};

export function fieldPath(field: SettingField): string {
  return `${field.group}.${field.key}`;
}
