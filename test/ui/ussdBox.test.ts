import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultOptions } from '../../server/config/options.js';
import { createGateway, type Gateway } from '../../server/index.js';
import { launchBrowser, openTab } from '../support/browser.js';
import buildUi from '../support/buildUi.js';

/** The modem card's USSD box in headless Chromium against the gateway with its built-in simulated modem. */
let gateway: Gateway;
let baseUrl: string;
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  await buildUi();
  dataDir = mkdtempSync(join(tmpdir(), 'ui-ussd-'));
  gateway = createGateway(
    {
      ...defaultOptions(),
      listen: { host: '127.0.0.1', port: 0 },
      dataDir,
      simulatedModems: 1,
      probeSerialPorts: false,
      username: 'admin',
      password: 'password123',
      uiDirectory: 'dist/ui',
    },
    { logSinks: [] },
  );
  baseUrl = (await gateway.start()).url;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function modemsPage(): Promise<Page> {
  const page = await openTab(browser, { viewport: { width: 1024, height: 700 } });
  await page.goto(`${baseUrl}/ui/#/modems`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('password123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('region', { name: /^USSD of / }).waitFor();
  return page;
}

describe('the USSD box on the modem card', () => {
  it('sends a menu code, replies in the session, and lists the answers newest first', async () => {
    const page = await modemsPage();
    try {
      const box = page.getByRole('region', { name: /^USSD of / });
      await expect.poll(() => box.getByRole('button', { name: 'Send code' }).isDisabled()).toBe(true);
      await box.getByLabel('USSD code').fill('*101#');
      await box.getByRole('button', { name: 'Send code' }).click();
      const answers = box.getByRole('list', { name: 'Recent USSD answers' });
      await answers.getByText('Menu: 1 Balance, 2 Bundles').waitFor();

      await box.getByLabel('Reply to the menu').fill('1');
      await box.getByRole('button', { name: 'Reply' }).click();
      await answers.getByText('Your balance is 12.50 EUR.').waitFor();
      await expect
        .poll(() => answers.getByRole('listitem').allTextContents())
        .toEqual([
          expect.stringContaining('1 → Your balance is 12.50 EUR.'),
          expect.stringContaining('*101# → Menu: 1 Balance, 2 Bundles'),
        ]);
      // The session ended with the answer: no reply field any more.
      await expect.poll(() => box.getByLabel('Reply to the menu').count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
