import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import {
  createWebhookRegistry,
  type WebhookDocumentData,
  type WebhookRecord,
} from '../../server/services/webhooks/webhookRegistry.js';
import { JsonDisk } from '../auth/support/jsonDocument.js';

function setup() {
  const disk = new JsonDisk<WebhookDocumentData>({ webhooks: [] });
  const open = () => createWebhookRegistry({ document: disk.open(), logger: silentLogger });
  return { disk, open };
}

describe('WebhookRegistry', () => {
  it('stores a webhook with the id the client chose and lists it', async () => {
    const registry = setup().open();
    const stored = await registry.upsert({
      id: 'hook-1',
      url: 'https://example.com/in',
      event: 'sms:received',
    });

    expect(stored).toEqual({ id: 'hook-1', url: 'https://example.com/in', event: 'sms:received' });
    expect(registry.list()).toEqual([stored]);
    expect(registry.get('hook-1')).toEqual(stored);
  });

  it('generates a 21-character id when the client sends none', async () => {
    const registry = setup().open();
    const first = await registry.upsert({ url: 'https://example.com/in', event: 'sms:sent' });
    const second = await registry.upsert({ url: 'https://example.com/in', event: 'sms:sent' });

    expect(first.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(second.id).not.toBe(first.id);
    expect(registry.list()).toHaveLength(2);
  });

  it('replaces the webhook when an existing id is registered again', async () => {
    const registry = setup().open();
    await registry.upsert({ id: 'hook-1', url: 'https://example.com/old', event: 'sms:received' });
    await registry.upsert({
      id: 'hook-1',
      url: 'http://127.0.0.1:9000/new',
      event: 'sms:failed',
      deviceId: 'modem-a',
    });

    expect(registry.list()).toEqual([
      { id: 'hook-1', url: 'http://127.0.0.1:9000/new', event: 'sms:failed', deviceId: 'modem-a' },
    ]);
  });

  it('removes a webhook and reports whether it was registered', async () => {
    const registry = setup().open();
    await registry.upsert({ id: 'hook-1', url: 'https://example.com/in', event: 'sms:received' });

    expect(await registry.remove('hook-1')).toBe(true);
    expect(await registry.remove('hook-1')).toBe(false);
    expect(registry.list()).toEqual([]);
  });

  it('keeps webhooks across a restart', async () => {
    const { open } = setup();
    await open().upsert({
      id: 'hook-1',
      url: 'https://example.com/in',
      event: 'system:ping',
      deviceId: 'modem-a',
    });

    expect(open().list()).toEqual([
      { id: 'hook-1', url: 'https://example.com/in', event: 'system:ping', deviceId: 'modem-a' },
    ]);
  });

  it('tells listeners about every stored change, and stops after unsubscribing', async () => {
    const registry = setup().open();
    const seen: string[][] = [];
    const unsubscribe = registry.onChange((webhooks) => seen.push(webhooks.map((hook) => hook.id)));

    await registry.upsert({ id: 'a', url: 'https://example.com/in', event: 'sms:received' });
    await registry.upsert({ id: 'b', url: 'https://example.com/in', event: 'sms:sent' });
    await registry.remove('a');
    await registry.remove('missing');
    unsubscribe();
    await registry.remove('b');

    expect(seen).toEqual([['a'], ['a', 'b'], ['b']]);
  });

  it('hands out copies, so callers cannot change stored records behind its back', async () => {
    const registry = setup().open();
    await registry.upsert({ id: 'a', url: 'https://example.com/in', event: 'sms:received' });
    const listed = registry.list()[0] as WebhookRecord;
    listed.url = 'http://evil.example.com/';

    expect(registry.get('a')?.url).toBe('https://example.com/in');
  });

  it.each([
    ['an unknown event', { url: 'https://example.com/in', event: 'sms:teleported' }, 'event'],
    ['plain http to a LAN host', { url: 'http://192.168.1.4/in', event: 'sms:received' }, 'url'],
    ['an empty id', { id: '  ', url: 'https://example.com/in', event: 'sms:received' }, 'id'],
    [
      'an id longer than 64 characters',
      { id: 'x'.repeat(65), url: 'https://example.com/in', event: 'sms:received' },
      'id',
    ],
    ['an empty deviceId', { url: 'https://example.com/in', event: 'sms:received', deviceId: '' }, 'deviceId'],
  ])('refuses %s with 400 naming the field and stores nothing', async (_name, input, field) => {
    const { disk, open } = setup();
    await expect(open().upsert(input)).rejects.toMatchObject({ code: ErrorCode.ValidationFailed, field });
    expect(disk.writes).toBe(0);
  });

  it('keeps each app to its own webhooks, and lets people manage every one', async () => {
    const registry = setup().open();
    const shop = { kind: 'app', appId: 'shop' } as const;
    const crm = { kind: 'app', appId: 'crm' } as const;
    const owner = { kind: 'person', id: 'owner' } as const;
    await registry.register({ id: 'shop-in', url: 'https://example.com/shop', event: 'sms:received' }, shop);
    await registry.register({ id: 'mine', url: 'https://example.com/owner', event: 'sms:sent' }, owner);

    expect(registry.listFor(shop).map((hook) => hook.id)).toEqual(['shop-in']);
    expect(registry.listFor(crm)).toEqual([]);
    expect(
      registry
        .listFor(owner)
        .map((hook) => hook.id)
        .sort(),
    ).toEqual(['mine', 'shop-in']);
    // Another app's id is taken; a person replacing an app's webhook leaves it the app's.
    await expect(
      registry.register({ id: 'shop-in', url: 'https://example.com/crm', event: 'sms:received' }, crm),
    ).rejects.toMatchObject({ code: ErrorCode.Conflict, field: 'id' });
    await registry.register(
      { id: 'shop-in', url: 'https://example.com/shop2', event: 'sms:received' },
      owner,
    );
    expect(registry.get('shop-in')).toMatchObject({ appId: 'shop', url: 'https://example.com/shop2' });
    // Another app's webhook is not there for crm to remove.
    expect(await registry.removeFor('shop-in', crm)).toBe(false);
    expect(registry.get('shop-in')).toBeDefined();
    await registry.removeApp('shop');
    expect(registry.list().map((hook) => hook.id)).toEqual(['mine']);
  });
});
