/**
 * The e-mail and SMPP settings in real headless Chromium against the real gateway: turning the
 * SMTP listener on from the Settings screen, its state in the status bar, and the test buttons.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../bench/support/gatewayProcess.js';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

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

async function signedInPage(): Promise<Page> {
  const page = await newTab(browser);
  await signIn(page, ui.baseUrl);
  return page;
}

describe('e-mail and SMPP in the Settings screen', () => {
  it('turns the SMTP listener on, shows it in the status bar and tests each way', async () => {
    const port = await freeLoopbackPort();
    const page = await signedInPage();
    await openScreen(page, 'Settings');
    await page.getByLabel('Accept e-mail as SMS').selectOption('true');
    await page.getByLabel('SMTP port').fill(String(port));
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();

    const bar = page.getByRole('region', { name: 'Gateway status' });
    await bar.getByText(`E-mail to SMS listening on 127.0.0.1:${port}.`).waitFor({ timeout: 20_000 });

    await page.getByRole('button', { name: 'Test the SMTP listener' }).click();
    await expect.poll(() => page.getByText(/^It works: 220 /).count(), { timeout: 10_000 }).toBe(1);

    await page.getByRole('button', { name: 'Test the SMPP server' }).click();
    await page.getByRole('alert').filter({ hasText: 'the SMPP server is off' }).waitFor();

    // No relay is set: the test mail fails with the reason, not silently.
    await page.getByRole('button', { name: 'Send a test mail' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'set email_forward.relay_host, email_forward.from, email_forward.to first' })
      .waitFor();
    await page.close();
  });
});
