/**
 * HTTP client of the Local server of "SMS Gateway for Android" (capcom6/android-sms-gateway,
 * app/src/main/java/me/capcom/smsgateway/modules/localserver/). Routes and fields as the app
 * defines them:
 * - WebService.kt: GET /health without auth, everything else with Basic auth; GET /device.
 * - routes/MessagesRoutes.kt: POST /messages (202 with the message, 409 for a known id),
 *   GET /messages/{id} (404 unknown), DELETE /messages/{id} (200 with the message once it is
 *   Cancelled, also when it was already; 400 "Message … is not in Pending state" once the phone
 *   took it up; 404 unknown: modules/messages/MessagesService.kt cancelMessage).
 * - routes/SettingsRoutes.kt: PATCH /settings with `{"webhooks": {"signing_key": …}}`
 *   (modules/settings/SettingsService.kt update, modules/webhooks/WebhooksSettings.kt import).
 * - routes/InboxRoutes.kt: GET /inbox with `from` (ISO date), `limit` 1..500, `offset`.
 * - routes/WebhooksRoutes.kt: POST /webhooks (201), DELETE /webhooks/{id} (204).
 * Gson leaves null fields out (extensions/GsonBuilder.kt), so every optional field is optional here.
 */
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { PhoneAddress } from './phoneAddress.js';

/** domain/ProcessingState.kt */
export type PhoneState =
  | 'Pending'
  | 'Cancelling'
  | 'Cancelled'
  | 'Processed'
  | 'Sent'
  | 'Delivered'
  | 'Failed';

/** localserver/domain/messages/Message.kt */
export interface PhoneMessage {
  id: string;
  state: PhoneState;
  recipients: { phoneNumber: string; state: PhoneState; error?: string }[];
}

/** localserver/domain/messages/PostMessageRequest.kt */
export interface PhoneSendRequest {
  id: string;
  phoneNumbers: string[];
  textMessage?: { text: string };
  dataMessage?: { data: string; port: number };
  /** localserver/domain/messages/MmsMessage.kt (branch "mms/extended-support", docs/MMS.md). */
  mmsMessage?: {
    subject?: string;
    text?: string;
    attachments: { contentType: string; name?: string; data: string }[];
  };
  simNumber?: number;
  withDeliveryReport: boolean;
  isEncrypted: boolean;
  /** ISO date; the app refuses an already expired message. */
  validUntil?: string;
}

/** routes/InboxRoutes.kt InboxMessage; `type` is modules/incoming/db/IncomingMessageType. */
export interface PhoneInboxMessage {
  id: string;
  type: string;
  sender: string;
  simNumber?: number;
  contentPreview: string;
  createdAt: string;
}

/** domain/HealthResponse.kt with modules/health/domain/CheckResult.kt */
export interface PhoneHealth {
  status: 'pass' | 'warn' | 'fail';
  checks?: Record<
    string,
    { status: string; observedValue: number; observedUnit: string; description: string }
  >;
  version?: string;
}

/** localserver/domain/Device.kt and SimCard.kt */
export interface PhoneDevice {
  id: string;
  name: string;
  simCards?: { slotIndex: number; simNumber: number; phoneNumber?: string; carrierName?: string }[];
}

export interface PhoneClientOptions {
  address: () => PhoneAddress;
  timeoutMs: number;
}

export class PhoneClient {
  constructor(private readonly options: PhoneClientOptions) {}

  health(): Promise<PhoneHealth> {
    // 500 means "fail" with the same body (WebService.kt), still an answer.
    return this.request<PhoneHealth>('GET', '/health', undefined, [200, 500]).then((answer) => answer.body);
  }

  async device(): Promise<PhoneDevice | undefined> {
    return (await this.request<PhoneDevice[]>('GET', '/device')).body[0];
  }

  /** Resolves 'accepted' on 202 and 'known' on 409 (the id was handed over before). */
  async send(request: PhoneSendRequest): Promise<'accepted' | 'known'> {
    const answer = await this.request('POST', '/messages', request, [202, 409]);
    return answer.status === 202 ? 'accepted' : 'known';
  }

  /**
   * Whether the app takes `mmsMessage` (its MMS support is upstream's branch "mms/extended-
   * support", not in every release). Asks with an MMS that every version refuses with 400 and
   * sends nothing: an app that knows MMS objects to the empty MMS ("MMS message must have text
   * or at least one attachment", PostMessageRequest.kt `validate`), one that does not to the
   * missing content ("Must specify exactly one of: textMessage, dataMessage, or message",
   * MessagesRoutes.kt). Anything else answers no: a phone is never handed an MMS on a guess.
   */
  async takesMms(): Promise<boolean> {
    const answer = await this.request<{ message?: unknown }>(
      'POST',
      '/messages',
      { phoneNumbers: [], mmsMessage: { attachments: [] } },
      [400],
    );
    const message = answer.body?.message;
    return typeof message === 'string' && /\bMMS\b/.test(message);
  }

  /**
   * Asks the phone to drop a message it has not taken up: 'cancelled' (200), 'too-late' (400:
   * no longer Pending there) or 'unknown' (404).
   */
  async cancel(id: string): Promise<'cancelled' | 'too-late' | 'unknown'> {
    const answer = await this.request(
      'DELETE',
      `/messages/${encodeURIComponent(id)}`,
      undefined,
      [200, 400, 404],
    );
    if (answer.status === 200) return 'cancelled';
    return answer.status === 400 ? 'too-late' : 'unknown';
  }

  /** The key the app signs its webhook posts with (X-Signature). */
  async setSigningKey(signingKey: string): Promise<void> {
    await this.request('PATCH', '/settings', { webhooks: { signing_key: signingKey } });
  }

  /** undefined when the phone has no message with this id (404). */
  async message(id: string): Promise<PhoneMessage | undefined> {
    const answer = await this.request<PhoneMessage>(
      'GET',
      `/messages/${encodeURIComponent(id)}`,
      undefined,
      [200, 404],
    );
    return answer.status === 404 ? undefined : answer.body;
  }

  /** Newest first (the app's order); `from` bounds it below. */
  async inbox(from: Date, limit: number, offset: number): Promise<PhoneInboxMessage[]> {
    const query = new URLSearchParams({
      from: from.toISOString(),
      limit: String(limit),
      offset: String(offset),
    });
    return (await this.request<PhoneInboxMessage[]>('GET', `/inbox?${query}`)).body;
  }

  async registerWebhook(id: string, url: string, event: string): Promise<void> {
    await this.request('POST', '/webhooks', { id, url, event }, [201]);
  }

  async deleteWebhook(id: string): Promise<void> {
    await this.request('DELETE', `/webhooks/${encodeURIComponent(id)}`, undefined, [204, 404]);
  }

  private async request<T>(
    method: string,
    path: string,
    body?: unknown,
    accepted: number[] = [200],
  ): Promise<{ status: number; body: T }> {
    const address = this.options.address();
    let response: Response;
    try {
      response = await fetch(`${address.url}${path}`, {
        method,
        headers: {
          authorization: address.authorization(),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new GatewayError(ErrorCode.PhoneUnreachable, `the phone at ${address.url} does not answer`, {
        cause: error,
      });
    }
    const text = await response.text().catch(() => '');
    if (!accepted.includes(response.status)) {
      throw new GatewayError(ErrorCode.PhoneApiError, phoneRefusal(method, path, response.status, text), {
        modemCode: response.status,
      });
    }
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }
}

/** 401 has an empty body (the app's Basic auth); others carry `{"message": …}` (WebService.kt). */
function phoneRefusal(method: string, path: string, status: number, text: string): string {
  if (status === 401)
    return "the phone refused the user or password: check them in the app's Local server settings";
  let reason = '';
  try {
    reason = (JSON.parse(text) as { message?: string }).message ?? '';
  } catch {
    reason = '';
  }
  return `the phone answered ${method} ${path.split('?')[0]} with HTTP ${status}${reason ? `: ${reason}` : ''}`;
}
