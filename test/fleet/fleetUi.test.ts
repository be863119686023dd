/**
 * Fleet mode in the UI, in real headless Chromium: the user turns it on in Settings against
 * the contract double of the private server's device API (test/support/fleetServerDouble.ts —
 * the Go server cannot be built here), sees the link's status there and in the status bar,
 * and sees where a message came from.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openTab, signIn } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { type FleetServerDouble, startFleetServerDouble } from '../support/fleetServerDouble.js';
import {
  type GatewayHarness,
  harnessPassword,
  harnessUser,
  startGatewayHarness,
} from '../support/gatewayHarness.js';
import { waitForReport } from './support/fleetReads.js';

describe('fleet mode in the UI', () => {
  let double: FleetServerDouble;
  let harness: GatewayHarness;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await buildUi();
    double = await startFleetServerDouble();
    harness = await startGatewayHarness({
      simulatedModems: 1,
      options: { uiDirectory: 'dist/ui' },
    });
    browser = await launchBrowser();
    page = await openTab(browser, { viewport: { width: 1024, height: 700 } });
    await signIn(page, harness.url, harnessUser, harnessPassword);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    await double?.close();
  });

  it('turns fleet mode on from Settings and shows the link, the new user once, and the status bar line', async () => {
    await page.goto(`${harness.url}/ui/#/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const section = page.getByRole('group', { name: 'Fleet mode (private server)' });
    await expect(section.getByRole('status').textContent()).resolves.toContain('Fleet mode is off');

    // Plain http to another machine is refused before it is sent.
    await page.getByLabel('Private server address').fill('http://sms.example.com/api/mobile/v1');
    await expect(section.getByRole('alert').textContent()).resolves.toContain('Use https://');

    await page.getByLabel('Private server address').fill(double.baseUrl);
    await page.getByLabel('Registration credential').fill(double.serverKey);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();

    const status = page.getByRole('status', { name: 'Fleet mode status' });
    await status.getByText('Connected').waitFor();
    const device = double.devices[0];
    await expect(status.textContent()).resolves.toContain(device?.id);
    await expect(status.textContent()).resolves.toContain(`The server created the user ${device?.userId}`);
    // The password is handed out once, on request (issue 36): shown, then never in the status.
    await status.getByRole('button', { name: 'Show the password' }).click();
    const password = (await status.locator('code').last().textContent()) ?? '';
    expect(password).toMatch(/^[a-z0-9_-]{6,}$/i);
    await status.getByText('note it now').waitFor();
    await page.getByRole('navigation', { name: 'Screens' }).getByText('Server: Connected').waitFor();
  });

  it('marks a message taken from the server as such in the message list', async () => {
    const message = double.enqueue({ text: 'from the fleet UI', phoneNumbers: ['+447700900601'] });
    await waitForReport(double, message.id, 'Sent');
    await page.goto(`${harness.url}/ui/#/messages`);
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: '+447700900601' });
    await row.getByText('From server').waitFor();
  });
});
