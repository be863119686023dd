import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { silentLogger } from '../../server/logging/logger.js';
import {
  emptyStoredSettings,
  SettingsService,
  type StoredSettings,
} from '../../server/services/settings/settingsService.js';
import { openStorage, type Storage } from '../../server/store/storage.js';

let dataDir: string;
let storage: Storage;
const clock = new ManualClock();

async function open(): Promise<SettingsService> {
  storage = await openStorage({ dataDir, clock, logger: silentLogger });
  const document = await storage.openDocument<StoredSettings>(
    'settings',
    structuredClone(emptyStoredSettings),
  );
  return new SettingsService(document, silentLogger);
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sms-gateway-settings-'));
});
afterEach(async () => {
  await storage.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('SettingsService', () => {
  it('keeps changed settings, secrets included, across a restart', async () => {
    const first = await open();
    await first.patch({ messages: { processing_order: 'FIFO' }, webhooks: { signing_key: 'secret' } });
    await storage.close();
    const second = await open();
    expect(second.current().messages.processing_order).toBe('FIFO');
    expect(second.current().webhooks.signing_key).toBe('secret');
  });

  it('persists only what the user set, so a default changed in a later release still reaches them', async () => {
    const service = await open();
    await service.patch({ logs: { lifetime_days: 14 } });
    await service.patch({ logs: { lifetime_days: null }, ping: { interval_seconds: 30 } });
    await storage.close();
    const reopened = await openStorage({ dataDir, clock, logger: silentLogger });
    storage = reopened;
    const document = await reopened.openDocument<StoredSettings>(
      'settings',
      structuredClone(emptyStoredSettings),
    );
    expect(document.data.values).toEqual({ logs: {}, ping: { interval_seconds: 30 } });
  });

  it('hands every reader the same frozen settings until a change, then the changed ones', async () => {
    const service = await open();
    const before = service.current();
    expect(service.current()).toBe(before);
    expect(() => {
      (before.messages as { processing_order: string }).processing_order = 'FIFO';
    }).toThrow(TypeError);
    await service.patch({ messages: { processing_order: 'FIFO' } });
    expect(service.current()).not.toBe(before);
    expect(service.current().messages.processing_order).toBe('FIFO');
    expect(before.messages.processing_order).not.toBe('FIFO');
  });

  it('returns write-only secrets from current() but never from view()', async () => {
    const service = await open();
    await service.patch({ encryption: { passphrase: 'pass' }, gateway: { private_token: 'token' } });
    expect(service.current().encryption.passphrase).toBe('pass');
    expect(service.view().encryption).toEqual({});
    expect(service.view().gateway).toEqual({ cloud_url: null, notification_channel: 'AUTO' });
  });

  it('stops calling a listener once it unsubscribes', async () => {
    const service = await open();
    const calls: string[][] = [];
    const stop = service.onChange((_settings, keys) => calls.push([...keys]));
    await service.patch({ ping: { interval_seconds: 10 } });
    stop();
    await service.patch({ ping: { interval_seconds: 20 } });
    expect(calls).toEqual([['ping.interval_seconds']]);
  });
});
