import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeviceCapabilityNames } from '../../server/contract/domain/device.js';
import { AndroidPhoneDouble } from '../support/androidPhone.js';
import { launchBrowser, openTab, signIn } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { createFakeAdb } from '../support/fakeAdb.js';
import { harnessPassword, harnessUser, startGatewayHarness } from '../support/gatewayHarness.js';

/**
 * The Modems screen's "Add Android phone" form in headless Chromium, against the real gateway,
 * the app's contract double and a fake adb on PATH listing one usable and one unauthorized phone.
 */
let browser: Browser;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  await buildUi();
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('adding an Android phone on the Modems screen', () => {
  it('offers the phones adb lists, says what to do for an unauthorized one, and adds one in a click and a password', async () => {
    const phone = new AndroidPhoneDouble();
    const appPort = await phone.start();
    cleanups.push(() => phone.stop());
    const adb = await createFakeAdb([
      { serial: 'R58M123ABC', state: 'device', appPort },
      { serial: 'emulator-5554', state: 'unauthorized', appPort },
    ]);
    cleanups.push(() => adb.remove());
    const previousPath = process.env.PATH;
    process.env.PATH = `${adb.directory}:${previousPath ?? ''}`;
    cleanups.push(() => {
      process.env.PATH = previousPath;
    });
    const harness = await startGatewayHarness({
      phoneTiming: { pollIntervalMs: 500, retryInitialMs: 500, requestTimeoutMs: 3_000 },
      options: { uiDirectory: 'dist/ui', simulatedModems: 1 },
    });
    cleanups.push(() => harness.close());

    const page = await openTab(browser, { viewport: { width: 1024, height: 700 } });
    cleanups.push(() => page.close());
    await signIn(page, harness.url, harnessUser, harnessPassword);
    await page.goto(`${harness.url}/ui/#/modems`);
    await page.getByRole('button', { name: 'Add a modem' }).click();

    const form = page.getByRole('form', { name: 'Android phone' });
    const usbList = form.getByRole('list', { name: 'Phones on USB' });
    await usbList.getByText('R58M123ABC').waitFor();
    await expect(usbList.getByText(/allow USB debugging/).count()).resolves.toBe(1);
    await usbList.getByRole('button', { name: 'Use this phone' }).click();
    await form.getByLabel('App password').fill(phone.password);
    await form.getByRole('button', { name: 'Add Android phone' }).click();
    await form.getByRole('status').waitFor();

    await page.getByText('Battery 87% (charging)').waitFor();
    // The app before MMS support: the card says so (docs/phones.md "MMS").
    await page.getByText('no MMS (this app version sends SMS only)').waitFor();
    expect(phone.requests.some((request) => request.path === '/health')).toBe(true);
    expect(await page.content()).not.toContain(phone.password);
  }, 90_000);

  it('sets a phone’s pacing on its panel, kept by the gateway', async () => {
    const phone = new AndroidPhoneDouble();
    const appPort = await phone.start();
    cleanups.push(() => phone.stop());
    const harness = await startGatewayHarness({
      phoneTiming: { pollIntervalMs: 500, retryInitialMs: 500, requestTimeoutMs: 3_000 },
      options: { uiDirectory: 'dist/ui', phones: [phone.urlWithCredentials(appPort)] },
    });
    cleanups.push(() => harness.close());
    const page = await openTab(browser, { viewport: { width: 1024, height: 700 } });
    cleanups.push(() => page.close());
    await signIn(page, harness.url, harnessUser, harnessPassword);
    await page.goto(`${harness.url}/ui/#/modems`);

    await page.getByText('Pacing of this phone').click();
    const form = page.getByRole('form', { name: 'Phone pacing' });
    await expect(form.getByLabel('At most (messages)').inputValue()).resolves.toBe('30');
    await form.getByLabel('Messages the phone may hold unsent').fill('0');
    await expect(form.getByRole('button', { name: 'Save pacing' }).isDisabled()).resolves.toBe(true);
    await form.getByLabel('Messages the phone may hold unsent').fill('4');
    await form.getByLabel('At most (messages)').fill('');
    await form.getByRole('button', { name: 'Save pacing' }).click();
    await form.getByRole('status').waitFor();

    const devices = (await harness.api.get<{ id: string; modem: { kind?: string } }[]>('/devices')).body;
    const deviceId = devices.find((device) => device.modem.kind === 'android')?.id ?? '';
    const saved = await harness.api.get<{ pacing: unknown }>(`/gateway/v1/phones/${deviceId}`);
    // No cap is left out of the answer (null fields are omitted, as upstream's Gson does).
    expect(saved.body.pacing).toEqual({ minIntervalSeconds: 0, periodMinutes: 30, maxInFlight: 4 });
  }, 90_000);

  it('shows each device only the panels its capabilities allow', async () => {
    const phone = new AndroidPhoneDouble();
    const appPort = await phone.start();
    cleanups.push(() => phone.stop());
    const harness = await startGatewayHarness({
      phoneTiming: { pollIntervalMs: 500, retryInitialMs: 500, requestTimeoutMs: 3_000 },
      options: { uiDirectory: 'dist/ui', simulatedModems: 1, phones: [phone.urlWithCredentials(appPort)] },
    });
    cleanups.push(() => harness.close());
    const devices = (
      await harness.api.get<{ id: string; modem: { kind?: string; capabilities?: string[] } }[]>('/devices')
    ).body;
    const capabilitiesOf = (kind: string | undefined) =>
      devices.find((device) => device.modem.kind === kind)?.modem.capabilities;
    expect(capabilitiesOf('android')).toEqual(['storage', 'deliveryReports']);
    // An AT modem (no kind) can do everything the view names but send MMS.
    expect(capabilitiesOf(undefined)).toEqual(DeviceCapabilityNames.filter((name) => name !== 'mms'));

    const page = await openTab(browser, { viewport: { width: 1024, height: 700 } });
    cleanups.push(() => page.close());
    await signIn(page, harness.url, harnessUser, harnessPassword);
    await page.goto(`${harness.url}/ui/#/modems`);
    const phonePanel = page.locator('section.modem-panel', { hasText: 'Battery' });
    const modemPanel = page.locator('section.modem-panel', { hasText: 'simulated modem' });
    await modemPanel.getByRole('region', { name: /^USSD of / }).waitFor();
    await phonePanel.getByRole('button', { name: 'Test send' }).waitFor();
    await expect(modemPanel.getByRole('button', { name: 'AT log' }).count()).resolves.toBe(1);
    await expect(phonePanel.getByRole('button', { name: 'AT log' }).count()).resolves.toBe(0);
    await expect(phonePanel.getByRole('button', { name: 'Balance & calls' }).count()).resolves.toBe(0);
    await expect(phonePanel.getByRole('region', { name: /^USSD of / }).count()).resolves.toBe(0);
  }, 90_000);
});
