import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiBases } from '../../server/doors/http/app.js';
import { type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

let harness: HttpHarness;
beforeEach(async () => {
  harness = await startHttpHarness();
});
afterEach(async () => {
  await harness.close();
});

const defaults = {
  gateway: { notification_channel: 'AUTO' },
  encryption: {},
  messages: {
    limit_period: 'Disabled',
    sim_selection_mode: 'OSDefault',
    processing_order: 'LIFO',
    work_hours_enabled: false,
  },
  ping: {},
  logs: { lifetime_days: 30 },
  incoming: {},
  webhooks: { internet_required: true, retry_count: 1, allow_lan_http: false },
  network: { allow_private_targets: false },
  receiver: { content_provider_enabled: false },
  desk: {},
  opt_out: { keywords: 'STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT', start_keywords: 'START' },
  auto_reply: { reply_period_minutes: 60 },
  smtp: {
    enabled: false,
    port: 2525,
    allow_lan: false,
    text_source: 'body',
    cut_marker: '-- ',
    max_parts: 10,
  },
  email_forward: {
    enabled: false,
    relay_port: 587,
    relay_secure: false,
    forward_failures: false,
    forward_reports: false,
    reply_domain: 'sms.gateway',
  },
  smpp: { enabled: false, port: 2775, allow_lan: false, mo_as_parts: false },
  metrics: { enabled: false },
  mcp: { confirm_sends: true },
};

const patch = (body: unknown, base = '') =>
  harness.request(`${base}/settings`, { method: 'PATCH', json: body });

describe('settings', () => {
  it.each(apiBases)('returns the defaults at %s/settings', async (base) => {
    const response = await harness.request(`${base}/settings`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(defaults);
  });

  it.each(apiBases)(
    'changes only the given keys with PATCH at %s/settings and answers with the result',
    async (base) => {
      const response = await patch({ messages: { limit_period: 'PerHour', limit_value: 50 } }, base);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        ...defaults,
        messages: { ...defaults.messages, limit_period: 'PerHour', limit_value: 50 },
      });
      expect(harness.settings.current().messages.limit_value).toBe(50);
      expect(harness.settings.current().webhooks.retry_count).toBe(1);
    },
  );

  it('resets a key to its default when PATCH sends null', async () => {
    await patch({ logs: { lifetime_days: 7 }, webhooks: { retry_count: 5 } });
    const response = await patch({ logs: { lifetime_days: null } });
    expect(response.body).toMatchObject({ logs: { lifetime_days: 30 }, webhooks: { retry_count: 5 } });
  });

  it('accepts write-only secrets and never returns them', async () => {
    const response = await patch({
      encryption: { passphrase: 'open sesame' },
      webhooks: { signing_key: 'k3y' },
      gateway: { private_token: 'tok', cloud_url: 'https://sms.example.com' },
    });
    expect(response.status).toBe(200);
    for (const text of [response.text, (await harness.request('/settings')).text]) {
      expect(text).not.toContain('open sesame');
      expect(text).not.toContain('k3y');
      expect(text).not.toContain('"tok"');
    }
    expect(response.body).toMatchObject({ gateway: { cloud_url: 'https://sms.example.com' } });
    expect(harness.settings.current().encryption.passphrase).toBe('open sesame');
    expect(harness.settings.current().webhooks.signing_key).toBe('k3y');
  });

  it.each(apiBases)(
    'replaces every setting with PUT at %s/settings: keys left out return to defaults',
    async (base) => {
      await patch({ webhooks: { retry_count: 9, signing_key: 'old' }, logs: { lifetime_days: 3 } });
      const response = await harness.request(`${base}/settings`, {
        method: 'PUT',
        json: { messages: { processing_order: 'FIFO' } },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        ...defaults,
        messages: { ...defaults.messages, processing_order: 'FIFO' },
      });
      expect(harness.settings.current().webhooks.signing_key).toBeNull();
    },
  );

  it.each([
    ['an unknown key', { messages: { limit_perod: 'PerDay' } }, 'messages.limit_perod'],
    ['an unknown group', { sms: {} }, 'sms'],
    ['a bad limit_period', { messages: { limit_period: 'Weekly' } }, 'messages.limit_period'],
    ['a bad sim_selection_mode', { messages: { sim_selection_mode: 'Both' } }, 'messages.sim_selection_mode'],
    ['a bad processing_order', { messages: { processing_order: 'Random' } }, 'messages.processing_order'],
    ['a negative interval', { messages: { send_interval_min: -1 } }, 'messages.send_interval_min'],
    ['a string retry count', { webhooks: { retry_count: '3' } }, 'webhooks.retry_count'],
    [
      'a non-boolean internet_required',
      { webhooks: { internet_required: 'no' } },
      'webhooks.internet_required',
    ],
    ['zero lifetime days', { logs: { lifetime_days: 0 } }, 'logs.lifetime_days'],
    ['zero inbox lifetime days', { incoming: { lifetime_days: 0 } }, 'incoming.lifetime_days'],
    ['a fractional inbox lifetime', { incoming: { lifetime_days: 1.5 } }, 'incoming.lifetime_days'],
    ['an inbox lifetime as text', { incoming: { lifetime_days: '7' } }, 'incoming.lifetime_days'],
    ['a cloud_url that is not a URL', { gateway: { cloud_url: 'sms.example' } }, 'gateway.cloud_url'],
    [
      'min interval above max',
      { messages: { send_interval_min: 10, send_interval_max: 5 } },
      'messages.send_interval_min',
    ],
    [
      'a limit period without a limit value',
      { messages: { limit_period: 'PerDay' } },
      'messages.limit_value',
    ],
  ])('answers 400 naming the key for %s, and changes nothing', async (_case, body, key) => {
    const before = (await harness.request('/settings')).body;
    const response = await patch(body);
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message.startsWith(`${key}: `)).toBe(true);
    // The Settings screen marks the input from `field`, not from the text.
    expect((response.body as { field?: string }).field).toBe(key);
    expect((await harness.request('/settings')).body).toEqual(before);
  });

  it('refuses a cloud_url with a user or password in it, naming the key and repeating neither (issue 36, item 14)', async () => {
    for (const cloudUrl of [
      'https://fleet:s3cret-pass@sms.example.com/api/mobile/v1',
      'https://s3cret-pass@sms.example.com/api/mobile/v1',
      'http://fleet:s3cret-pass@127.0.0.1:3000/api/mobile/v1',
    ]) {
      const response = await patch({ gateway: { cloud_url: cloudUrl } });
      expect(response.status, cloudUrl).toBe(400);
      expect((response.body as { message: string }).message).toMatch(/^gateway\.cloud_url: /);
      expect(response.text).not.toContain('s3cret-pass');
      expect(harness.settings.current().gateway.cloud_url).toBeNull();
    }
  });

  /**
   * The app's inbox retention: `incoming.lifetime_days`, whole days of at least 1, or null to
   * keep received messages forever (capcom6/android-sms-gateway@9f0f77c007cda70312f5c25c0a36b1e49eaf8d0c,
   * branch issue/385-incoming-messages-cleanup,
   * app/src/main/java/me/capcom/smsgateway/modules/incoming/IncomingMessagesSettings.kt).
   */
  it.each(apiBases)('keeps the inbox lifetime set with PATCH and PUT at %s/settings', async (base) => {
    const patched = await patch({ incoming: { lifetime_days: 14 } }, base);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ incoming: { lifetime_days: 14 } });
    expect(harness.settings.current().incoming.lifetime_days).toBe(14);
    const put = await harness.request(`${base}/settings`, {
      method: 'PUT',
      json: { incoming: { lifetime_days: 90 } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ incoming: { lifetime_days: 90 } });
    const cleared = await patch({ incoming: { lifetime_days: null } }, base);
    expect(cleared.body).toMatchObject({ incoming: {} });
    expect(harness.settings.current().incoming.lifetime_days).toBeNull();
  });

  // client-go `smsgateway/domain_settings.go` and client-rs `src/types/settings.rs`.
  it('accepts the settings keys the ecosystem clients define, and returns them', async () => {
    const response = await patch({
      messages: { work_hours_enabled: true, work_hours_start: '09:00', work_hours_end: '17:30' },
      gateway: { notification_channel: 'SSE_ONLY' },
      receiver: { content_provider_enabled: true },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      messages: { work_hours_enabled: true, work_hours_start: '09:00', work_hours_end: '17:30' },
      gateway: { notification_channel: 'SSE_ONLY' },
      receiver: { content_provider_enabled: true },
    });
  });

  it.each([
    [{ messages: { work_hours_start: '9:00' } }, 'messages.work_hours_start'],
    [{ messages: { work_hours_end: '24:00' } }, 'messages.work_hours_end'],
    [{ messages: { work_hours_enabled: true, work_hours_start: '09:00' } }, 'messages.work_hours_end'],
    [{ gateway: { notification_channel: 'FCM_ONLY' } }, 'gateway.notification_channel'],
    [{ receiver: { sms_enabled: true } }, 'receiver.sms_enabled'],
  ])('refuses %j naming %s', async (body, field) => {
    const response = await patch(body);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain(field.split('.').pop());
    const after = await harness.request('/settings');
    expect(after.body).toEqual(defaults);
  });

  it('checks a key against the stored value of its partner key', async () => {
    await patch({ messages: { send_interval_max: 5 } });
    const response = await patch({ messages: { send_interval_min: 6 } });
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message.startsWith('messages.send_interval_min: ')).toBe(
      true,
    );
  });

  it('tells listeners which keys changed, so changes apply live', async () => {
    const changes: string[][] = [];
    harness.settings.onChange((_settings, keys) => changes.push([...keys]));
    await patch({ messages: { processing_order: 'FIFO' }, ping: { interval_seconds: 60 } });
    await patch({ messages: { processing_order: 'FIFO' } });
    expect(changes).toEqual([['messages.processing_order', 'ping.interval_seconds']]);
  });
});
