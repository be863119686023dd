import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { StopList } from '../../server/composition/stopList.js';
import { openGatewayStorage } from '../../server/composition/storage.js';
import { silentLogger } from '../../server/logging/logger.js';

let dataDir: string;
let stops: StopList;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sms-gateway-settings-migration-'));
  stops = new StopList();
});
afterEach(async () => {
  await stops.stopAll(silentLogger);
  await rm(dataDir, { recursive: true, force: true });
});

/** Opens the data directory as the gateway does at start, over a `settings.json` an older one wrote. */
async function openOver(stored: unknown) {
  await writeFile(join(dataDir, 'settings.json'), JSON.stringify(stored), { mode: 0o600 });
  const { settings } = await openGatewayStorage({
    dataDir,
    region: undefined,
    clock: new ManualClock(),
    logger: silentLogger,
    stops,
  });
  return settings;
}

describe('settings written before incoming.lifetime_days', () => {
  it('keep the inbox lifetime the message history lifetime gave it', async () => {
    const settings = await openOver({ values: { messages: { log_lifetime_days: 10 } }, version: 0 });
    expect(settings.current().incoming.lifetime_days).toBe(10);
    expect(settings.current().messages.log_lifetime_days).toBe(10);
    const written = JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'));
    expect(written).toMatchObject({ version: 2, values: { incoming: { lifetime_days: 10 } } });
  });

  it('keep received messages forever when no lifetime was set', async () => {
    const settings = await openOver({ values: { logs: { lifetime_days: 5 } }, version: 0 });
    expect(settings.current().incoming.lifetime_days).toBeNull();
    expect(settings.current().logs.lifetime_days).toBe(5);
  });
});

describe('a fleet server address kept with a login in it (issue 36, item 14)', () => {
  it('is kept without the login, so GET /settings never shows it', async () => {
    const settings = await openOver({
      values: {
        gateway: { cloud_url: 'https://fleet:s3cret-pass@sms.example.com/api/mobile/v1', private_token: 'k' },
      },
      version: 1,
    });
    expect(settings.current().gateway.cloud_url).toBe('https://sms.example.com/api/mobile/v1');
    expect(JSON.stringify(settings.view())).not.toContain('s3cret-pass');
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).not.toContain('s3cret-pass');
  });
});
