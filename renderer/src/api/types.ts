/** Shapes of the gateway's HTTP API as the UI reads them (the spec, upstream's records, our /gateway/v1). */

import type { z } from 'zod';
import type {
  DeviceStatusReason,
  ModemStatus,
  RadioTechnology,
  SimCardInfo,
  StorageUse,
} from '../../../server/contract/domain/device.js';
import type { IncomingMessageEvent, IncomingType } from '../../../server/contract/domain/incoming.js';
import type { LogLevel } from '../../../server/contract/domain/logLevels.js';
import type { MessageState } from '../../../server/contract/domain/message.js';
import type { MessageView } from '../../../server/contract/domain/messageView.js';
import type { SmsServicePreference } from '../../../server/contract/domain/smsServicePreference.js';
import type { WebhookEventName } from '../../../server/contract/domain/webhookEvents.js';
import type {
  bridgeStatusSchema,
  bridgeTestResultSchema,
} from '../../../server/contract/schemas/bridgeSchemas.js';
import type { databaseViewSchema } from '../../../server/contract/schemas/databaseViewSchema.js';
import type {
  conversationViewSchema,
  openingHoursSchema,
  optOutViewSchema,
  ruleActionSchema,
  ruleInputSchema,
  ruleMatchSchema,
  ruleVerdictViewSchema,
  ruleViewSchema,
  threadMessageViewSchema,
} from '../../../server/contract/schemas/deskSchemas.js';
import type { DeviceView } from '../../../server/contract/schemas/deviceViewSchema.js';
import type { fleetStatusSchema } from '../../../server/contract/schemas/fleetStatusSchema.js';
import type {
  atLogLineViewSchema,
  GatewayStatus,
  refusedPortViewSchema,
  serialPortViewSchema,
  webhookDeliveryViewSchema,
} from '../../../server/contract/schemas/gatewayViewSchemas.js';
import type { incomingViewSchema } from '../../../server/contract/schemas/inboxSchemas.js';
import type {
  messageRequestSchema,
  textContentSchema,
} from '../../../server/contract/schemas/messageSchemas.js';
import type {
  dailyCountViewSchema,
  missedCallViewSchema,
  modemFiguresViewSchema,
  modemOperationsViewSchema,
  ussdExchangeViewSchema,
} from '../../../server/contract/schemas/modemOperationsSchemas.js';
import type {
  newPhoneSchema,
  phoneViewSchema,
  usbListingSchema,
} from '../../../server/contract/schemas/phoneSchemas.js';
import type { simPlanSchema } from '../../../server/contract/schemas/planSchemas.js';
import type {
  routeDecisionSchema,
  routingRuleSchema,
  routingRuleViewSchema,
} from '../../../server/contract/schemas/routingSchemas.js';
import type { webhookSchema } from '../../../server/contract/schemas/webhookSchemas.js';

export { IncomingTypes as InboxTypes } from '../../../server/contract/domain/incoming.js';
// The server's own lists, records and schemas (server/contract/domain/ and other modules without Node
// imports, so they bundle for the browser; test/architecture/boundaries.test.ts keeps it so).
export { MessageStates } from '../../../server/contract/domain/message.js';
export { WebhookEventNames as WebhookEvents } from '../../../server/contract/domain/webhookEvents.js';
export type {
  DeviceStatusReason,
  MessageState,
  ModemStatus,
  RadioTechnology,
  SmsServicePreference,
  StorageUse,
};
export type SimCard = SimCardInfo;
export type InboxType = IncomingType;

/** The API's message state record (GET /messages/{id}), as the server's schema defines it. */
export type MessageRecord = MessageView;
export type RecipientState = MessageView['recipients'][number];

/**
 * POST /messages as the UI sends it: a text to numbers, with the request schema's own field types
 * (the schema also takes data messages, the legacy `message` and encrypted fields, which the UI
 * never sends). `scheduleAt`: not sent before this instant (ISO 8601), Compose's "send later".
 */
export type SendMessageRequest = Pick<
  z.input<typeof messageRequestSchema>,
  'phoneNumbers' | 'deviceId' | 'simNumber' | 'priority' | 'withDeliveryReport' | 'ttl' | 'scheduleAt'
> & { textMessage: z.input<typeof textContentSchema> };

/** A device of GET /devices, as the server's view schema defines it; `modem` holds our modem fields. */
export type DeviceRecord = DeviceView;
export type ModemInfo = DeviceRecord['modem'];
export type BalanceReading = NonNullable<ModemInfo['balance']>;
/** What a device can do beyond sending; the Modems screen shows a panel per capability. */
export type DeviceCapabilityName = NonNullable<ModemInfo['capabilities']>[number];

/** A USSD request and the network's answer; 'waiting' sessions continue with `sessionId`. */
export type UssdExchange = z.output<typeof ussdExchangeViewSchema>;
/** A modem's balance check and call settings (GET/PUT …/operations), with the last balance answer. */
export type ModemOperationsSettings = z.output<typeof modemOperationsViewSchema>;
export type MissedCall = z.output<typeof missedCallViewSchema>;
export type ModemFiguresRecord = z.output<typeof modemFiguresViewSchema>;
export type DailyStats = z.output<typeof dailyCountViewSchema>;

/**
 * An incoming message of GET /inbox, as the server's view schema defines it, without the
 * `attachments` the UI never reads (always empty: a modem driven over AT commands downloads no
 * MMS), so a live event's row (`inboxRecordFromEvent`) needs none.
 */
export type InboxRecord = Omit<z.output<typeof incomingViewSchema>, 'attachments'>;

/** An entry of GET /logs or of the live stream's `log` event. */
export interface LogRecord {
  id?: string | number;
  priority: LogLevel;
  module: string;
  message: string;
  context?: Record<string, unknown>;
  /** ISO from GET /logs, epoch ms from the live stream. */
  createdAt: string | number;
}

export type WebhookEvent = WebhookEventName;

/** A registered webhook (GET /webhooks), as the server's schema defines it. */
export type WebhookRecord = z.output<typeof webhookSchema>;

/** GET /gateway/v1/webhooks/deliveries: one event for one webhook, with its attempts. */
export type WebhookDeliveryRecord = z.output<typeof webhookDeliveryViewSchema>;
export type WebhookAttempt = WebhookDeliveryRecord['attempts'][number];

/** GET /gateway/v1/status, typed as the server builds it. */
export type { GatewayStatus };

export type FleetStatusView = z.output<typeof fleetStatusSchema>;

/** GET /gateway/v1/bridges: the SMTP listener and the SMPP server (docs/email-and-smpp.md). */
export type BridgeStatus = z.output<typeof bridgeStatusSchema>;
export type BridgeName = keyof BridgeStatus | 'email';
/** POST /gateway/v1/bridges/{name}/test. */
export type BridgeTestResult = z.output<typeof bridgeTestResultSchema>;

export type SerialPortInfo = z.output<typeof serialPortViewSchema>;
/** A USB port discovery found but may not open, with the fix (GET /gateway/v1/serial-ports/refused). */
export type RefusedPortInfo = z.output<typeof refusedPortViewSchema>;
/** A line of a modem's AT log (GET /gateway/v1/devices/{id}/at-log). */
export type AtLogLine = z.output<typeof atLogLineViewSchema>;

/** GET /gateway/v1/me, /gateway/v1/users and /gateway/v1/audit (docs/accounts-plans-routing.md). */
export type { StaffRole } from '../../../server/contract/domain/staffRoles.js';
export type {
  AppView,
  AuditEventView,
  MeView,
  StaffView,
} from '../../../server/contract/schemas/accountSchemas.js';

import type { smppLoginIssuedSchema } from '../../../server/contract/schemas/accountSchemas.js';
/** PUT /gateway/v1/{users,apps}/{id}/smpp-login and /gateway/v1/me/smpp-login. */
export type IssuedSmppLogin = z.output<typeof smppLoginIssuedSchema>;
/** Whose SMPP login: a person's, an app's, or the signed-in person's own. */
export type SmppLoginHolder = { kind: 'person' | 'app'; id: string } | { kind: 'me' };

/** GET /gateway/v1/plans: a SIM's plan with its use against each cap. */
export type { SimPlanView } from '../../../server/contract/schemas/planSchemas.js';
export type SimPlanTermsInput = z.input<typeof simPlanSchema>;

/** GET and PUT /gateway/v1/routing, GET /gateway/v1/routing/try (docs/accounts-plans-routing.md). */
export type RoutingRuleView = z.output<typeof routingRuleViewSchema>;
export type RoutingRuleInput = z.input<typeof routingRuleSchema>;
export type RouteDecision = z.output<typeof routeDecisionSchema>;
/** A modem (its id: every SIM slot) or one SIM slot of it, as routing rules and apps name them. */
export type { SimTargetForm } from '../../../server/contract/domain/simTarget.js';

/** GET /gateway/v1/tokens: an issued pair with every pair refreshed from it. */
export type { IssuedTokenView } from '../../../server/contract/schemas/tokenViewSchemas.js';

export interface TokenResponse {
  id: string;
  token_type: string;
  access_token: string;
  refresh_token?: string;
  expires_at: string;
}

/** Settings as GET /settings returns them: groups of snake_case keys; unset keys are omitted. */
export type SettingsDocument = Record<string, Record<string, unknown> | undefined>;
export type DatabaseSize = z.output<typeof databaseViewSchema>;

/** The live stream's `incoming` event (GET /gateway/v1/events), as the server announces it. */
export type IncomingEvent = IncomingMessageEvent;

/** GET /gateway/v1/usb-phones: what adb lists. */
export type UsbPhoneListing = z.output<typeof usbListingSchema>;
/** POST /gateway/v1/phones: a phone on Wi-Fi (url) or on USB (serial). */
export type NewPhoneRequest = z.input<typeof newPhoneSchema>;
/** GET/PATCH /gateway/v1/phones/{id}: how fast the gateway hands messages to one Android phone. */
export type PhoneRecord = z.output<typeof phoneViewSchema>;
/** `maxPerPeriod` null: no cap. */
export type PhonePacing = PhoneRecord['pacing'];

/** The desk (GET /gateway/v1/conversations…, /opt-outs, /rules): the shapes of our extension routes. */
export type ConversationRecord = z.output<typeof conversationViewSchema>;
export type ThreadMessageRecord = z.output<typeof threadMessageViewSchema>;
export type OptOutRecord = z.output<typeof optOutViewSchema>;

export type RuleMatchKind = z.output<typeof ruleMatchSchema>['kind'];
export type OpeningHours = z.output<typeof openingHoursSchema>;
/** A reply has either a text or a template: the schema's refine narrows its type to that union. */
export type RuleAction = z.output<typeof ruleActionSchema>;
export type RuleInput = z.output<typeof ruleInputSchema>;

export type RuleRecord = z.output<typeof ruleViewSchema>;
export type RuleVerdict = z.output<typeof ruleVerdictViewSchema>;
