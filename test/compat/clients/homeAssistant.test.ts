import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startReceiver, type WebhookReceiver } from '../../support/webhookReceiver.js';
import { ClientRefusal, decodeAs, jsonOf } from '../support/clientWire.js';
import {
  type ApiResponse,
  basicHeader,
  type GatewayUnderTest,
  startGatewayUnderTest,
  wrongBasicHeader,
} from '../support/gatewayUnderTest.js';

/**
 * Home Assistant's integration (holyhope/ha-android-sms-gateway), every call of
 * `custom_components/android_sms_gateway/api.py` AndroidSmsGatewayClient (6), each as it builds
 * it: aiohttp with BasicAuth, the configured endpoint with its trailing slash stripped (the
 * gateway's root here), `status >= 400` as the failure test, and aiohttp's `response.json()`,
 * which refuses a body not labelled application/json. Also the webhook payload `__init__.py`
 * handle_webhook reads.
 */
const endpoint = '';
const aiohttpHeaders = { Accept: '*/*', 'User-Agent': 'HomeAssistant/2026.1 aiohttp/3.11' };

async function haCall(
  gateway: GatewayUnderTest,
  method: string,
  path: string,
  options: { json?: unknown; readsJson?: boolean; authorization?: string | null } = {},
): Promise<{ response: ApiResponse; value: unknown }> {
  const { readsJson, ...request } = options;
  const response = await gateway.request(method, `${endpoint}${path}`, {
    ...request,
    headers: aiohttpHeaders,
  });
  if (!readsJson) return { response, value: undefined };
  const what = `Home Assistant ${method} ${path}`;
  if (response.status >= 400)
    throw new ClientRefusal(`${what}: AndroidSmsGatewayError HTTP ${response.status}`);
  if (!response.headers.get('content-type')?.startsWith('application/json'))
    throw new ClientRefusal(`${what}: aiohttp ContentTypeError ${response.headers.get('content-type')}`);
  return { response, value: jsonOf(response, what) };
}

/** What `api.py` and `__init__.py` read from a listed webhook: `item.get("id"|"url"|"event")`. */
const listedWebhooks = z.array(z.object({ id: z.string(), url: z.string(), event: z.string() }));

/**
 * `binary_sensor.py` reads `settings.get("ping", {}).get("interval_seconds")`: `ping`, when
 * present, must be an object (None.get would raise).
 */
const settingsRead = z.object({
  ping: z.object({ interval_seconds: z.number().int().nullish() }).optional(),
});

/** `__init__.py` `_webhook_name`: the id under which an event is registered. */
const webhookName = (event: string) => `home-assistant-${event.replace(':', '-')}`;

describe('the Home Assistant integration', () => {
  let gateway: GatewayUnderTest;
  let receiver: WebhookReceiver;
  const call = (
    method: string,
    path: string,
    options?: { json?: unknown; readsJson?: boolean; authorization?: string | null },
  ) => haCall(gateway, method, path, options);

  /** `api.py` async_list_webhooks. */
  const listWebhooks = async () =>
    decodeAs(
      listedWebhooks,
      (await call('GET', '/webhooks', { readsJson: true })).value,
      'async_list_webhooks',
    );

  /** `api.py` async_delete_webhook: a 404 is fine, anything else ≥ 400 raises. */
  const deleteWebhook = async (name: string) => {
    const { response } = await call('DELETE', `/webhooks/${name}`);
    if (response.status >= 400 && response.status !== 404)
      throw new ClientRefusal(`delete ${name}: ${response.status}`);
    return response;
  };

  /** `api.py` async_ensure_webhook: list, keep an identical one, else delete and POST {id, url, event}. */
  const ensureWebhook = async (name: string, event: string, url: string) => {
    const match = (await listWebhooks()).find((item) => item.id === name);
    if (match && match.url === url && match.event === event) return 'kept';
    if (match) await deleteWebhook(name);
    const { response } = await call('POST', '/webhooks', { json: { id: name, url, event } });
    if (response.status >= 400)
      throw new ClientRefusal(`register ${name}: HTTP ${response.status}: ${response.text}`);
    return 'registered';
  };

  beforeAll(async () => {
    gateway = await startGatewayUnderTest();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await gateway.stop();
  });

  /**
   * The config flow calls `async_check_auth`: GET {endpoint}/ with Basic auth; 401 means
   * "invalid_auth", any other status ≥ 400 "cannot_connect", anything below 400 success.
   * aiohttp sends "Accept: any type", so the browser redirect to the UI never applies.
   */
  it('async_check_auth: 401 for a wrong or missing password, success for the right one', async () => {
    expect((await call('GET', '/', { authorization: wrongBasicHeader })).response.status).toBe(401);
    expect((await call('GET', '/', { authorization: null })).response.status).toBe(401);
    expect((await call('GET', '/', { authorization: basicHeader })).response.status).toBeLessThan(400);
  });

  /** `async_send_sms`: POST {endpoint}/message with `{textMessage: {text}, phoneNumbers: [number]}`. */
  it('async_send_sms', async () => {
    const { response } = await call('POST', '/message', {
      json: { textMessage: { text: 'from Home Assistant' }, phoneNumbers: ['+33612345678'] },
    });
    expect(response.status, response.text).toBe(202);
  });

  it('async_get_settings: a JSON object whose ping group binary_sensor.py can read', async () => {
    const { value } = await call('GET', '/settings', { readsJson: true });
    decodeAs(settingsRead, value, 'async_get_settings');
  });

  /**
   * `__init__.py` loops over the configured events and calls `async_ensure_webhook` for each;
   * an error stops the loop. `const.py` DEFAULT_EVENTS = sms:received, mms:received,
   * system:ping, so refusing mms:received would leave system:ping unregistered. A second set-up
   * keeps the identical registrations.
   */
  it('async_ensure_webhook registers the default events in order, and keeps them on reload', async () => {
    const url = 'https://homeassistant.example/api/webhook/abc123';
    const events = ['sms:received', 'mms:received', 'system:ping'];
    for (const event of events)
      expect(await ensureWebhook(webhookName(event), event, url)).toBe('registered');
    expect((await listWebhooks()).map((item) => item.event)).toEqual(events);
    for (const event of events) expect(await ensureWebhook(webhookName(event), event, url)).toBe('kept');
  });

  /** A changed URL: async_ensure_webhook deletes the registration and posts it again. */
  it('async_ensure_webhook replaces a registration whose url drifted', async () => {
    const moved = 'https://homeassistant.example/api/webhook/moved';
    expect(await ensureWebhook(webhookName('sms:received'), 'sms:received', moved)).toBe('registered');
    const item = (await listWebhooks()).find((webhook) => webhook.id === webhookName('sms:received'));
    expect(item?.url).toBe(moved);
  });

  /** The other events `const.py` EVENT_TYPES offers in its options flow. */
  it.each(['sms:sent', 'sms:delivered', 'sms:failed', 'sms:data-received', 'mms:downloaded'])(
    'async_ensure_webhook accepts the optional event %s',
    async (event) => {
      expect(
        await ensureWebhook(webhookName(event), event, 'https://homeassistant.example/api/webhook/x'),
      ).toBe('registered');
    },
  );

  /**
   * `__init__.py` prunes registrations whose id starts with "home-assistant-" and is no longer
   * wanted, with `async_delete_webhook`; deleting one that is already gone (404) is no error.
   */
  it('prunes unwanted registrations with async_delete_webhook, tolerating 404', async () => {
    const desired = new Set([webhookName('sms:received')]);
    for (const item of await listWebhooks()) {
      if (item.id.startsWith('home-assistant-') && !desired.has(item.id)) {
        expect((await deleteWebhook(item.id)).status).toBeLessThan(300);
      }
    }
    expect((await listWebhooks()).map((item) => item.id)).toEqual([webhookName('sms:received')]);
    expect((await deleteWebhook('home-assistant-never-registered')).status).toBeLessThan(500);
  });

  /**
   * `__init__.py` builds the webhook URL from Home Assistant's internal URL by default
   * (`const.py` DEFAULT_URL_MODE = internal), typically http://<LAN address>:8123.
   */
  it('registers its internal http:// LAN URL once webhooks.allow_lan_http is on, not before', async () => {
    const url = 'http://192.168.1.20:8123/api/webhook/abc123';
    await expect(ensureWebhook('ha-lan', 'sms:received', url)).rejects.toThrow(/HTTP 400.*allow_lan_http/);
    const setting = await gateway.request('PATCH', '/settings', {
      json: { webhooks: { allow_lan_http: true } },
    });
    expect(setting.status, setting.text).toBe(200);
    expect(await ensureWebhook('ha-lan', 'sms:received', url)).toBe('registered');
  });

  /**
   * `handle_webhook` reads `payload["event"]`, and for system:ping `payload["payload"]["health"]`
   * with its `status` and `checks` (`checks["battery:level"]["observedValue"]` when present).
   */
  it('sends system:ping with the health report handle_webhook reads', async () => {
    expect(
      (await gateway.request('PATCH', '/settings', { json: { ping: { interval_seconds: 30 } } })).status,
    ).toBe(200);
    expect(await ensureWebhook(webhookName('system:ping'), 'system:ping', receiver.url)).toBe('registered');
    // With pings off the dispatcher re-reads the interval once a minute; the first ping follows.
    await gateway.clock.advance(60_000);
    await gateway.runUntil(() => receiver.requests.length > 0, 'a system:ping webhook');
    const envelope = z
      .object({
        event: z.literal('system:ping'),
        payload: z.object({
          health: z.object({
            status: z.enum(['pass', 'warn', 'fail']),
            checks: z.record(z.string(), z.object({ observedValue: z.number() })),
          }),
        }),
      })
      .parse(JSON.parse(receiver.requests[0]?.body ?? ''));
    expect(envelope.payload.health.checks).not.toEqual({});
  });
});
