import { z } from 'zod';
import { isCountryCode } from '../domain/countryCode.js';
import { serverUrlProblem } from '../domain/serverUrl.js';

/**
 * Every setting the API knows (spec "Settings", docs/decisions.md#settings), by group and snake_case key.
 * Each value is nullable on the wire: null resets it to its default.
 */
export const LimitPeriods = ['Disabled', 'PerMinute', 'Per30Minutes', 'PerHour', 'PerDay'] as const;
export const SimSelectionModes = ['OSDefault', 'RoundRobin', 'Random'] as const;
/** Order among equal priorities: the spec's default is enqueue time descending (LIFO). */
export const ProcessingOrders = ['LIFO', 'FIFO'] as const;

const seconds = z.number().int().min(0).max(86_400);
const days = z.number().int().min(1).max(3650);
const secret = z.string().min(1).max(1024);
const listenPort = z.number().int().min(1).max(65_535);
const filePath = z.string().min(1).max(4096);
/** Where an e-mail's SMS text comes from (docs/email-and-smpp.md). */
export const MailTextSources = ['body', 'subject', 'subject_and_body'] as const;
/** A time of day as the ecosystem writes it (client-go `domain_settings.go`): "HH:mm", 24-hour. */
const clockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day as HH:mm (00:00–23:59)');
/** How the device hears of new work from a server (the app and client-go): FCM is not for a PC. */
export const NotificationChannels = ['AUTO', 'SSE_ONLY'] as const;

export const settingGroups = {
  encryption: {
    passphrase: secret,
  },
  gateway: {
    /** The private server's device API (fleet mode); https:// unless on this PC. */
    cloud_url: z.url({ protocol: /^https?$/ }).superRefine((url, context) => {
      const problem = serverUrlProblem(url);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
    private_token: secret,
    notification_channel: z.enum(NotificationChannels),
  },
  messages: {
    send_interval_min: seconds,
    send_interval_max: seconds,
    limit_period: z.enum(LimitPeriods),
    limit_value: z.number().int().min(1).max(1_000_000),
    sim_selection_mode: z.enum(SimSelectionModes),
    processing_order: z.enum(ProcessingOrders),
    log_lifetime_days: days,
    /** No sends outside [start, end) local time, except priority ≥ 100 (server spec, client-rs). */
    work_hours_enabled: z.boolean(),
    work_hours_start: clockTime,
    work_hours_end: clockTime,
  },
  ping: {
    interval_seconds: seconds,
  },
  logs: {
    lifetime_days: days,
  },
  /**
   * The app's inbox retention (capcom6/android-sms-gateway, branch
   * issue/385-incoming-messages-cleanup, `modules/incoming/IncomingMessagesSettings.kt`): whole
   * days of at least 1; null keeps received messages forever.
   */
  incoming: {
    lifetime_days: days,
  },
  webhooks: {
    internet_required: z.boolean(),
    retry_count: z.number().int().min(0).max(100),
    signing_key: secret,
    allow_lan_http: z.boolean(),
  },
  /**
   * Ours: whether modems behind serial servers, HiLink sticks and Android phones may
   * be added at addresses of this computer or a private network (`server/devices/transport/networkTargets.ts`).
   */
  network: {
    allow_private_targets: z.boolean(),
  },
  /**
   * The app's SMS receiver (client-go `SettingsReceiver`): `content_provider_enabled` makes an
   * Android phone also watch its SMS database. A modem has no such database, so the value is
   * kept and returned for the clients that manage it, and changes nothing here.
   */
  receiver: {
    content_provider_enabled: z.boolean(),
  },
  desk: {
    /** How numbers typed without `+` are read (ISO 3166 alpha-2); set at first run from the locale. */
    default_country: z
      .string()
      .refine((code): boolean => isCountryCode(code), 'must be a two-letter country code such as DE or US'),
  },
  /** Ours (docs/desk.md "Opt-out"): comma-separated keywords, matched as the whole text, any case. */
  opt_out: {
    keywords: z.string().min(1).max(500),
    start_keywords: z.string().min(1).max(500),
    confirmation_text: z.string().min(1).max(480),
  },
  /** Ours (docs/desk.md "Auto-reply rules"): one reply per sender per rule within this period. */
  auto_reply: {
    reply_period_minutes: z.number().int().min(1).max(525_600),
  },
  /** Ours (docs/email-and-smpp.md): the SMTP listener that turns e-mail into SMS. */
  smtp: {
    enabled: z.boolean(),
    port: listenPort,
    /** Listen on every interface instead of loopback only. */
    allow_lan: z.boolean(),
    text_source: z.enum(MailTextSources),
    /** A line starting with this ends the text: what follows is a signature or a quoted reply. */
    cut_marker: z.string().min(1).max(100),
    max_parts: z.number().int().min(1).max(255),
    /** PEM files for STARTTLS; without both, STARTTLS is not offered. */
    tls_cert_file: filePath,
    tls_key_file: filePath,
  },
  /** Ours (docs/email-and-smpp.md): incoming SMS (and, by choice, failures and reports) as e-mail. */
  email_forward: {
    enabled: z.boolean(),
    relay_host: z.string().min(1).max(253),
    relay_port: listenPort,
    /** TLS from the first byte (port 465); otherwise STARTTLS when the relay offers it. */
    relay_secure: z.boolean(),
    relay_username: z.string().min(1).max(320),
    relay_password: secret,
    from: z.email(),
    /** Comma-separated addresses. */
    to: z.string().min(3).max(2000),
    forward_failures: z.boolean(),
    forward_reports: z.boolean(),
    /** Replies go to <number>@<this domain>: sent through the SMTP listener, they become SMS. */
    reply_domain: z.string().min(1).max(253),
  },
  /** Ours (docs/email-and-smpp.md): the SMPP 3.4 server for software that speaks SMPP. */
  smpp: {
    enabled: z.boolean(),
    port: listenPort,
    allow_lan: z.boolean(),
    /** A long incoming SMS as one deliver_sm per part (concatenation UDH) instead of whole. */
    mo_as_parts: z.boolean(),
  },
  /** Ours (docs/metrics.md): GET /metrics for Prometheus, behind the metrics:read scope. */
  metrics: {
    enabled: z.boolean(),
  },
  /** Ours (docs/mcp.md): the MCP endpoint for AI agents. */
  mcp: {
    /** send_sms only drafts; the agent sends with confirm_send once its user agreed. */
    confirm_sends: z.boolean(),
  },
} as const;

type Groups = typeof settingGroups;
export type SettingGroup = keyof Groups;

/** The settings in force: a value, or null where the setting has no default and is unset. */
export type Settings = {
  [G in SettingGroup]: { [K in keyof Groups[G]]: z.output<Groups[G][K]> | null };
};

/** What a client may send: any subset, each value or null. */
export type SettingsPatch = {
  [G in SettingGroup]?: { [K in keyof Groups[G]]?: z.output<Groups[G][K]> | null };
};

/** Defaults of the spec's table, docs/decisions.md#settings for our additions. */
export const settingDefaults: Settings = {
  encryption: { passphrase: null },
  gateway: { cloud_url: null, private_token: null, notification_channel: 'AUTO' },
  messages: {
    send_interval_min: null,
    send_interval_max: null,
    limit_period: 'Disabled',
    limit_value: null,
    sim_selection_mode: 'OSDefault',
    processing_order: 'LIFO',
    log_lifetime_days: null,
    work_hours_enabled: false,
    work_hours_start: null,
    work_hours_end: null,
  },
  ping: { interval_seconds: null },
  logs: { lifetime_days: 30 },
  incoming: { lifetime_days: null },
  webhooks: { internet_required: true, retry_count: 1, signing_key: null, allow_lan_http: false },
  network: { allow_private_targets: false },
  receiver: { content_provider_enabled: false },
  desk: { default_country: null },
  opt_out: {
    keywords: 'STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT',
    start_keywords: 'START',
    confirmation_text: null,
  },
  auto_reply: { reply_period_minutes: 60 },
  smtp: {
    enabled: false,
    port: 2525,
    allow_lan: false,
    text_source: 'body',
    cut_marker: '-- ',
    max_parts: 10,
    tls_cert_file: null,
    tls_key_file: null,
  },
  email_forward: {
    enabled: false,
    relay_host: null,
    relay_port: 587,
    relay_secure: false,
    relay_username: null,
    relay_password: null,
    from: null,
    to: null,
    forward_failures: false,
    forward_reports: false,
    reply_domain: 'sms.gateway',
  },
  smpp: { enabled: false, port: 2775, allow_lan: false, mo_as_parts: false },
  metrics: { enabled: false },
  mcp: { confirm_sends: true },
};

/** Secrets accepted on write and never returned (spec: write-only settings). */
export const writeOnlySettings: readonly string[] = [
  'encryption.passphrase',
  'webhooks.signing_key',
  'gateway.private_token',
  'email_forward.relay_password',
];

/**
 * The secrets that leave this PC, and the settings that decide where to. Whoever may change
 * settings must not learn a secret by pointing its destination at a server of theirs: a change
 * of destination is taken only with the secret given again in the same change.
 */
export const secretDestinations: Readonly<Record<string, readonly string[]>> = {
  'gateway.private_token': ['gateway.cloud_url'],
  'email_forward.relay_password': [
    'email_forward.relay_host',
    'email_forward.relay_port',
    'email_forward.relay_secure',
  ],
};

/** `limit_period` → `limitPeriod`. */
export function camelCaseKey(key: string): string {
  return key.replace(/_([a-z])/g, (_all, letter: string) => letter.toUpperCase());
}

/**
 * Request body of PATCH and PUT /settings. Strict: an unknown group or key is a 400 naming it,
 * never silently dropped (a typo would otherwise look like success).
 *
 * Each key is also accepted in camelCase (`limitPeriod`): the official TypeScript client
 * (`android-sms-gateway` on npm, `DeviceSettings`) sends settings in that form, while the spec
 * and the app use snake_case. Both fold into snake_case; when a request names both forms, the
 * snake_case value wins. Responses are always snake_case.
 */
export const settingsPatchSchema = z
  .strictObject(
    Object.fromEntries(
      Object.entries(settingGroups).map(([group, keys]) => [
        group,
        z
          .strictObject(
            Object.fromEntries(
              Object.entries(keys).flatMap(([key, schema]) => {
                const entries: [string, z.ZodType][] = [[key, schema.nullable().optional()]];
                const alias = camelCaseKey(key);
                if (alias !== key)
                  entries.push([alias, schema.nullable().optional().describe(`alias of ${key}`)]);
                return entries;
              }),
            ),
          )
          .optional(),
      ]),
    ),
  )
  .transform(foldCamelCase) as unknown as z.ZodType<SettingsPatch>;

function foldCamelCase(body: Record<string, Record<string, unknown> | undefined>): SettingsPatch {
  const patch: Record<string, Record<string, unknown>> = {};
  for (const [group, keys] of Object.entries(body)) {
    if (!keys) continue;
    const folded: Record<string, unknown> = {};
    for (const key of Object.keys(settingGroups[group as SettingGroup])) {
      const value = keys[key] !== undefined ? keys[key] : keys[camelCaseKey(key)];
      if (value !== undefined) folded[key] = value;
    }
    patch[group] = folded;
  }
  return patch as SettingsPatch;
}

/** Response of GET, PATCH and PUT /settings: every readable setting that has a value. */
export const settingsViewSchema = z.object(
  Object.fromEntries(
    Object.entries(settingGroups).map(([group, keys]) => [
      group,
      z
        .object(
          Object.fromEntries(
            Object.entries(keys)
              .filter(([key]) => !writeOnlySettings.includes(`${group}.${key}`))
              .map(([key, schema]) => [key, schema.optional()]),
          ),
        )
        .optional(),
    ]),
  ),
);
