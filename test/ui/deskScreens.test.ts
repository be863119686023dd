import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openTab, signIn } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import {
  type GatewayHarness,
  harnessPassword,
  harnessUser,
  startGatewayHarness,
} from '../support/gatewayHarness.js';

/**
 * The desk's screens in real headless Chromium against the real gateway with the built-in
 * simulated modem: templates in Compose, numbers as typed, names beside numbers, layout.
 */
const viewport = { width: 1024, height: 700 };
const screenshotDir = 'test-artifacts/screens';

let harness: GatewayHarness;
let browser: Browser;

beforeAll(async () => {
  await buildUi();
  harness = await startGatewayHarness({ simulatedModems: 1, options: { uiDirectory: 'dist/ui' } });
  await harness.api.patch('/settings', { desk: { default_country: 'DE' } });
  await harness.api.post('/gateway/v1/contacts', { name: 'Eva Baker', phoneNumber: '0160 1111111' });
  browser = await launchBrowser();
  mkdirSync(screenshotDir, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

async function signedInPage(): Promise<Page> {
  const page = await openTab(browser, { viewport });
  await signIn(page, harness.url, harnessUser, harnessPassword);
  return page;
}

describe('the desk screens in Chromium', () => {
  it('saves a template, sends it from Compose to a number typed the local way, and shows the contact name', async () => {
    const page = await signedInPage();
    await page.goto(`${harness.url}/ui/#/templates`);
    await page.getByRole('button', { name: 'New template' }).click();
    await page.getByLabel('Name').fill('Open Sunday');
    await page.getByLabel('Text').fill('Yes, we are open on Sunday from 10 to 16.');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByRole('table', { name: 'Templates' }).getByText('Open Sunday').waitFor();

    await page.goto(`${harness.url}/ui/#/messages`);
    await page.getByRole('button', { name: 'New message' }).click();
    const compose = page.getByRole('form', { name: 'Compose message' });
    await compose.getByLabel('Recipients').fill('12');
    // Read with the default country once the window has it (a moment after the form opens).
    await compose
      .getByRole('alert')
      .getByText('12 is too short for a number in DE', { exact: true })
      .waitFor();
    await compose.getByLabel('Recipients').fill('0160 1111111');
    await compose.getByLabel('Template').selectOption({ label: 'Open Sunday' });
    await expect(compose.getByLabel('Message', { exact: true }).inputValue()).resolves.toBe(
      'Yes, we are open on Sunday from 10 to 16.',
    );
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    const row = page.locator('tr[data-message-id]').filter({ hasText: 'open on Sunday' });
    // The name comes from the address book a moment after the row.
    await row.locator('td').nth(2).getByText('Eva Baker (+491601111111)', { exact: true }).waitFor();
    await page.close();
  });

  it('renders Contacts, Templates and Bulk send at 1024×700 without sideways scrolling or CSP violations', async () => {
    const page = await signedInPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text());
    });
    for (const screen of ['contacts', 'templates', 'campaigns']) {
      await page.goto(`${harness.url}/ui/#/${screen}`);
      await page.locator('main h1').waitFor();
      await page.locator('.loading').first().waitFor({ state: 'detached' });
      // A string expression: this file is compiled without the DOM library.
      const overflow = await page.evaluate<number>(
        'document.documentElement.scrollWidth - window.innerWidth',
      );
      expect({ screen, overflow }).toEqual({ screen, overflow: 0 });
      await page.screenshot({ path: join(screenshotDir, `${screen}.png`) });
    }
    expect(violations).toEqual([]);
    await page.close();
  });
});
