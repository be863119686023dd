import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceRecord } from '../../renderer/src/api/types.js';
import { systemClock } from '../../server/clock/clock.js';
import { silentLogger } from '../../server/logging/logger.js';
import { openStorage } from '../../server/store/storage.js';
import { message } from '../store/storeTestKit.js';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { apiCall, newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * Issue 14 item 8: when a modem stops passing delivery reports on (its storage filled), its
 * messages stay Sent. The gateway counts those still waiting an hour on, and the window warns on
 * every screen, the Modems screen included. The history is written into the data directory
 * between two runs of the real gateway, as months of use would leave it.
 */
let ui: UiGateway;
let browser: Browser;
let modem: DeviceRecord;

const hour = 60 * 60_000;

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway();
  browser = await launchBrowser();
  const devices = await apiCall<DeviceRecord[]>(ui.baseUrl, 'GET', '/devices');
  modem = devices[0] as DeviceRecord;
  await ui.gateway.stop();
  const storage = await openStorage({ dataDir: ui.dataDir, clock: systemClock, logger: silentLogger });
  const now = Date.now();
  const sent = (id: string, sentAt: number, withDeliveryReport = true) =>
    storage.messages.insert(
      message({
        id,
        state: 'Sent',
        deviceId: modem.id,
        withDeliveryReport,
        createdAt: sentAt - 1_000,
        states: { Pending: sentAt - 1_000, Processed: sentAt - 500, Sent: sentAt },
      }),
    );
  await sent('waiting-1', now - 2 * hour);
  await sent('waiting-2', now - 3 * hour);
  await sent('waiting-3', now - 5 * hour);
  // Not counted: too recent for a report to be late, no report asked for, long ago.
  await sent('recent', now - 10 * 60_000);
  await sent('no-report-asked', now - 2 * hour, false);
  await sent('last-week', now - 7 * 24 * hour);
  await storage.close();
  await ui.restart();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

describe('delivery reports that stop arriving', () => {
  it('are counted per modem in GET /devices', async () => {
    const devices = await apiCall<DeviceRecord[]>(ui.baseUrl, 'GET', '/devices');
    const reports = devices.find((device) => device.id === modem.id)?.modem?.deliveryReports;
    expect(reports?.overdue).toBe(3);
    expect(Date.now() - Date.parse(reports?.oldestSentAt ?? '')).toBeGreaterThan(5 * hour - 60_000);
  });

  it('are named on every screen, the Modems screen included', async () => {
    const page = await newTab(browser);
    await signIn(page, ui.baseUrl);
    const warning = page.getByRole('region', { name: 'Gateway status' });
    await expect.poll(() => warning.textContent()).toContain('Delivery reports stopped arriving from');
    await expect.poll(() => warning.textContent()).toContain('3 messages sent over an hour ago have none');
    await openScreen(page, 'Modems');
    await expect.poll(() => warning.textContent()).toContain(modem.modem?.port ?? 'no port');
    await page.close();
  });
});
