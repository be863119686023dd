import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basicHeader,
  type GatewayUnderTest,
  startGatewayUnderTest,
  wrongBasicHeader,
} from '../support/gatewayUnderTest.js';

/**
 * Home Assistant's integration (holyhope/ha-android-sms-gateway), replayed call by call as
 * `custom_components/android_sms_gateway/api.py` builds them: Basic auth (aiohttp.BasicAuth),
 * the endpoint with its trailing slash stripped, and `status >= 400` as the only failure test.
 */
const haEndpoint = '';

describe('the Home Assistant integration', () => {
  let gateway: GatewayUnderTest;
  beforeAll(async () => {
    gateway = await startGatewayUnderTest();
  });
  afterAll(async () => {
    await gateway.stop();
  });

  /**
   * The config flow calls `async_check_auth`: GET {endpoint}/ with Basic auth; 401 means
   * "invalid_auth", any other status ≥ 400 "cannot_connect", anything below 400 success.
   * aiohttp sends "Accept: any type", so the browser redirect to the UI never applies.
   */
  it('rejects a wrong password at GET / with 401, and accepts the right one', async () => {
    const check = (authorization: string | null) =>
      fetch(`${gateway.url}${haEndpoint}/`, {
        headers: { Accept: '*/*', ...(authorization ? { Authorization: authorization } : {}) },
      });
    expect((await check(wrongBasicHeader)).status).toBe(401);
    expect((await check(null)).status).toBe(401);
    expect((await check(basicHeader)).status).toBeLessThan(400);
  });

  /**
   * `__init__.py` loops over the configured events and calls `async_ensure_webhook` for each;
   * an error stops the loop. `const.py` DEFAULT_EVENTS = sms:received, mms:received,
   * system:ping, so refusing mms:received left system:ping unregistered.
   */
  it('registers its default events in order, each as async_ensure_webhook does', async () => {
    const url = 'https://homeassistant.example/api/webhook/abc123';
    for (const event of ['sms:received', 'mms:received', 'system:ping']) {
      const id = `home-assistant-${event.replace(':', '-')}`;
      // api.py async_ensure_webhook: GET {endpoint}/webhooks, then POST {id, url, event}.
      const list = await gateway.request('GET', `${haEndpoint}/webhooks`);
      expect(list.status).toBeLessThan(400);
      expect(Array.isArray(list.body)).toBe(true);
      const created = await gateway.request('POST', `${haEndpoint}/webhooks`, { json: { id, url, event } });
      expect(created.status, `${event}: ${created.text}`).toBeLessThan(400);
    }
    const registered = (await gateway.request('GET', `${haEndpoint}/webhooks`)).body as { event: string }[];
    expect(registered.map((webhook) => webhook.event)).toEqual([
      'sms:received',
      'mms:received',
      'system:ping',
    ]);
  });

  /** The other events `const.py` EVENT_TYPES offers in its options flow. */
  it.each(['sms:sent', 'sms:delivered', 'sms:failed', 'sms:data-received', 'mms:downloaded'])(
    'accepts the optional event %s',
    async (event) => {
      const created = await gateway.request('POST', `${haEndpoint}/webhooks`, {
        json: { id: `ha-${event}`, url: 'https://homeassistant.example/api/webhook/x', event },
      });
      expect(created.status, created.text).toBe(201);
    },
  );

  /**
   * `__init__.py` builds the webhook URL from Home Assistant's internal URL by default
   * (`const.py` DEFAULT_URL_MODE = internal), typically http://<LAN address>:8123.
   */
  it('registers its internal http:// LAN URL once webhooks.allow_lan_http is on, not before', async () => {
    const webhook = {
      id: 'ha-lan',
      url: 'http://192.168.1.20:8123/api/webhook/abc123',
      event: 'sms:received',
    };
    const refused = await gateway.request('POST', `${haEndpoint}/webhooks`, { json: webhook });
    expect(refused.status).toBe(400);
    expect((refused.body as { message: string }).message).toContain('allow_lan_http');

    const setting = await gateway.request('PATCH', '/settings', {
      json: { webhooks: { allow_lan_http: true } },
    });
    expect(setting.status, setting.text).toBe(200);
    const created = await gateway.request('POST', `${haEndpoint}/webhooks`, { json: webhook });
    expect(created.status, created.text).toBe(201);
  });
});
