import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceRecord, MessageRecord } from '../../renderer/src/api/types.js';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { pollUntil } from '../support/pollUntil.js';
import { apiCall, newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * Issue 38: the Settings screen shows the database's size beside the retention settings, and the
 * modem card how many parts went out on a relay link kept open with +CMMS (the built-in
 * simulated modem offers mode 2).
 */
let ui: UiGateway;
let browser: Browser;

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway();
  browser = await launchBrowser();
  await apiCall(ui.baseUrl, 'PATCH', '/settings', { messages: { log_lifetime_days: 90 } });
  const posted = await apiCall<MessageRecord>(ui.baseUrl, 'POST', '/messages', {
    textMessage: { text: 'x'.repeat(400) },
    phoneNumbers: ['+15550001111'],
    withDeliveryReport: false,
  });
  await pollUntil(
    async () => (await apiCall<MessageRecord>(ui.baseUrl, 'GET', `/messages/${posted.id}`)).state === 'Sent',
    { limitMs: 30_000, what: 'the three-part message to be sent' },
  );
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

describe('figures of the database and of the relay link', () => {
  it('shows the database size, what it holds and how long it is kept on the Settings screen', async () => {
    const page = await newTab(browser);
    try {
      await signIn(page, ui.baseUrl);
      await openScreen(page, 'Settings');
      const panel = page.getByRole('region', { name: 'Database' });
      await expect
        .poll(() => panel.locator('dd').allTextContents())
        .toEqual([
          expect.stringMatching(/^\d+(\.\d)? (kB|MB) for 1 message and 0 received$/),
          'for 90 days',
          'forever',
        ]);
    } finally {
      await page.close();
    }
  });

  it('shows the parts sent on the kept relay link on the modem card', async () => {
    const [device] = await apiCall<DeviceRecord[]>(ui.baseUrl, 'GET', '/devices');
    expect(device?.modem.relayLink).toEqual({ mode: 2, keptLinkSends: 2 });
    const page = await newTab(browser);
    try {
      await signIn(page, ui.baseUrl);
      await openScreen(page, 'Modems');
      await page
        .getByText('2 parts of long messages went out over a link to the SMS centre kept open between them')
        .waitFor();
      await page.getByText('+CMMS=2: the modem keeps the link open between sends').waitFor();
    } finally {
      await page.close();
    }
  });
});
