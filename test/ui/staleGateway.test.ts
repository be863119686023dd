import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screens } from '../../renderer/src/screenList.js';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { apiCall, newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * Issue 14 item 3: a stopped gateway must not look alive. A gateway of this file's own is
 * stopped under a signed-in tab; every screen then marks its data stale, and unmarks it once a
 * gateway answers again on the same port.
 */
let ui: UiGateway;
let browser: Browser;

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

describe('a stopped gateway', () => {
  it('marks every screen stale while the live stream is down, and fresh again when it is back', async () => {
    const page = await newTab(browser);
    await signIn(page, ui.baseUrl);
    const main = page.locator('main#main');
    const unreachable = page
      .getByRole('region', { name: 'Gateway status' })
      .getByText(/^Gateway unreachable since \d\d:\d\d:\d\d/);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await page.locator('.modem-card').getByText('Ready', { exact: true }).waitFor();
    expect(await main.getAttribute('data-stale')).toBeNull();
    expect(await unreachable.count()).toBe(0);

    await ui.gateway.stop();
    await unreachable.waitFor({ timeout: 15_000 });
    for (const screen of screens) {
      await openScreen(page, screen.label);
      await unreachable.waitFor();
      expect({ screen: screen.id, stale: await main.getAttribute('data-stale') }).toEqual({
        screen: screen.id,
        stale: 'true',
      });
    }
    await openScreen(page, 'Messages');
    await page.getByRole('button', { name: 'New message' }).click();
    const draft = page.getByRole('region', { name: 'New message' }).getByLabel('Message', { exact: true });
    await draft.fill('half-written while the gateway was away');

    await ui.restart();
    // Sent while the window's stream is still down (it retries with back-off, at most 30 s
    // between attempts): no live event brings it, only reading the list again.
    await apiCall(ui.baseUrl, 'POST', '/messages', {
      textMessage: { text: 'sent during the outage' },
      phoneNumbers: ['+15550001234'],
    });
    await unreachable.waitFor({ state: 'detached', timeout: 40_000 });
    expect(await main.getAttribute('data-stale')).toBeNull();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await page.getByRole('table', { name: 'Messages' }).getByText('+15550001234').first().waitFor();
    await expect(draft.inputValue()).resolves.toBe('half-written while the gateway was away');
    await page.close();
  }, 90_000);
});
