/**
 * Our webhooks on a USB phone (the app posts plain http to 127.0.0.1 alone, hence `adb reverse`).
 * Once per connection: our port reversed onto the phone, our signing key set in its app, then one
 * webhook per event there. An app that cannot take the key (no PATCH /settings) gets no webhooks:
 * unsigned posts would be refused, so polling alone serves it.
 */
import { describeError, ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { PhoneClient } from './phoneClient.js';
import { phoneHookPath, phoneWebhookEvents } from './phoneWebhooks.js';
import type { UsbConnection } from './usbConnection.js';

/** This phone's secret path token, the key we give its app to sign posts with, and our port once we listen. */
export interface PhoneWebhookSettings {
  token: string;
  signingKey: string;
  gatewayPort: () => number | undefined;
}

export interface PhoneWebhookRegistrationDeps {
  deviceId: string;
  client: PhoneClient;
  usb?: UsbConnection;
  webhooks?: PhoneWebhookSettings;
  logger: Logger;
}

export class PhoneWebhookRegistration {
  /** The URL our webhooks are registered at on the phone, for the current connection. */
  private registeredAt?: string;
  /** Webhooks are not set up on this phone (its app cannot sign them): polling only. */
  private refused = false;

  constructor(private readonly deps: PhoneWebhookRegistrationDeps) {}

  /** A new connection (a new adb forward): register again at the next answer. */
  connectionChanged(): void {
    this.registeredAt = undefined;
  }

  async register(): Promise<void> {
    const { usb, webhooks, client, logger } = this.deps;
    const port = webhooks?.gatewayPort();
    if (!usb || !webhooks || port === undefined || this.refused) return;
    const url = `http://127.0.0.1:${port}${phoneHookPath(webhooks.token)}`;
    if (this.registeredAt === url) return;
    try {
      await client.setSigningKey(webhooks.signingKey);
    } catch (error) {
      if (!isGatewayError(error, ErrorCode.PhoneApiError)) throw error;
      // 404: an app without PATCH /settings, for good; anything else: tried again next connection.
      this.refused = error.modemCode === 404;
      logger.warn('the phone app did not take our webhook signing key; polling it instead', {
        error: describeError(error),
      });
      return;
    }
    await usb.reverse(port);
    // Same ids every time: the app replaces a webhook with a known id (WebHooksService.kt replace).
    for (const event of phoneWebhookEvents) await client.registerWebhook(this.webhookId(event), url, event);
    this.registeredAt = url;
    logger.info('webhooks registered on the phone', { events: phoneWebhookEvents.join(', ') });
  }

  /** Removes our webhooks from the phone; `reachable`: only a phone that answers is asked. */
  async unregister(reachable: boolean): Promise<void> {
    if (this.registeredAt && reachable) {
      for (const event of phoneWebhookEvents) {
        await this.deps.client.deleteWebhook(this.webhookId(event)).catch(() => undefined);
      }
    }
    this.registeredAt = undefined;
  }

  private webhookId(event: string): string {
    return `smsgw-${this.deps.deviceId}-${event.replace(':', '-')}`;
  }
}
