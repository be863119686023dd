/**
 * The device-facing API of an SMS Gateway private server (`/mobile/v1`), as the Android app
 * speaks it. Field names and optionality follow upstream's DTOs, which are the contract:
 * android-sms-gateway/client-go `smsgateway/requests_mobile.go`, `responses_mobile.go`,
 * `domain_messages.go` and `domain_devices.go`; the routes are android-sms-gateway/server
 * `internal/sms-gateway/handlers/mobile.go` and `handlers/messages/mobile.go` (server
 * 22074dda6adc71414a00c3457ee057e4fdde510f). Cancellation came with server 1.45 and client-go
 * 1.14 (read at client-go 2e68df02b7c850b24cbf505ac58c9b3b57ca09ce).
 */

/**
 * `smsgateway.ProcessingState`. The server puts a message it was asked to cancel in Cancelling
 * and waits for the device to report Cancelled (server models/migrations/mysql/
 * 20260617000000_add_cancelled_message_state.sql).
 */
export const ProcessingStates = [
  'Pending',
  'Cancelling',
  'Cancelled',
  'Processed',
  'Sent',
  'Delivered',
  'Failed',
] as const;
export type ProcessingState = (typeof ProcessingStates)[number];

/**
 * `smsgateway.SimCard` (client-go domain_devices.go): `slotIndex` is the 0-based physical slot,
 * `simNumber` the 1-based number a message's `simNumber` names.
 */
export interface MobileSimCard {
  slotIndex: number;
  simNumber: number;
  phoneNumber?: string;
  carrierName?: string;
  iccid?: string;
}

/** `smsgateway.MobileRegisterRequest`. */
export interface MobileRegisterRequest {
  name?: string;
  /** FCM token; a desktop has none, and a device without one is notified over SSE. */
  pushToken: string | null;
  simCards: MobileSimCard[];
}

/**
 * `smsgateway.MobileUpdateRequest` (PATCH /device). `pushToken` is left out, as the app's Gson
 * leaves out its null one: the server keeps the token it has when none is sent. The server
 * replaces the SIM cards on every PATCH, so the list is always the whole of them.
 */
export interface MobileUpdateRequest {
  id: string;
  simCards: MobileSimCard[];
}

/** `smsgateway.MobileRegisterResponse`: `password` only when the server created the user. */
export interface MobileRegisterResponse {
  id: string;
  token: string;
  login: string;
  password?: string;
}

/** `smsgateway.MobileUserCodeResponse`. */
export interface MobileUserCodeResponse {
  code: string;
  validUntil: string;
}

/**
 * `smsgateway.MobileMessage`: `smsgateway.Message` plus `state` and `createdAt`
 * (converters/messages.go MessageToMobileDTO).
 */
export interface MobileMessage {
  id: string;
  deviceId?: string;
  /** Deprecated twin of `textMessage.text`, still filled by the server. */
  message?: string;
  textMessage?: { text: string } | null;
  dataMessage?: { data: string; port: number } | null;
  /**
   * An MMS (converters/messages.go MobileMessageDTO, modules/messages MmsMessageContent:
   * subject and text omitted when empty, attachments of contentType, name and Base64 data).
   */
  mmsMessage?: {
    subject?: string;
    text?: string;
    attachments?: { contentType: string; name?: string; data: string }[];
  } | null;
  phoneNumbers: string[];
  isEncrypted?: boolean;
  simNumber?: number | null;
  withDeliveryReport?: boolean | null;
  priority?: number;
  ttl?: number | null;
  validUntil?: string | null;
  scheduleAt?: string | null;
  /** Pending, or Cancelling when it was cancelled on the server; absent before server 1.45. */
  state?: ProcessingState;
  createdAt?: string;
}

/** `smsgateway.RecipientState`. */
export interface RecipientState {
  phoneNumber: string;
  state: ProcessingState;
  error?: string;
}

/** `smsgateway.MobilePatchMessageItem`: one element of the PATCH /message body. */
export interface MobilePatchMessageItem {
  id: string;
  state: ProcessingState;
  recipients: RecipientState[];
  /** State name → RFC 3339 time it was reached. */
  states: Partial<Record<ProcessingState, string>>;
}

/** `smsgateway.PushEventType`: what the events stream announces (`domain_upstream.go`). */
export const PushEventTypes = [
  'MessageEnqueued',
  'MessageCancelled',
  'WebhooksUpdated',
  'MessagesExportRequested',
  'SettingsUpdated',
] as const;
export type PushEventType = (typeof PushEventTypes)[number];

/** The data of MessageCancelled (server modules/events/events.go NewMessageCancelledEvent). */
export interface MessageCancelledData {
  messageId: string;
}

/**
 * The data of MessagesExportRequested (server modules/events/events.go
 * NewMessagesExportRequestedEvent): every value is a string. `since`/`until` are RFC 3339;
 * `messageTypes` is a comma-separated list of `smsgateway.IncomingMessageType`, absent for the
 * default; `webhookDelivery` (Disabled, Individual, Batch) came after `triggerWebhooks`
 * ("true"/"false"), which the server still sends for older apps.
 */
export interface MessagesExportRequestedData {
  since: string;
  until: string;
  messageTypes?: string;
  webhookDelivery?: string;
  triggerWebhooks?: string;
}

/**
 * `smsgateway.Webhook` as `GET /mobile/v1/webhooks` lists it (handlers/webhooks/mobile.go):
 * the user's webhooks for all devices and for this one.
 */
export interface MobileWebhook {
  id: string;
  deviceId: string | null;
  url: string;
  event: string;
}
