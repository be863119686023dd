import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AndroidPhoneDouble, fastPhonePolling } from '../support/androidPhone.js';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { apiCall, newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * Issue 39, SIM slots in the window, with a dual-SIM Android phone (the contract double) and a
 * single-SIM simulated modem: the Routing screen's rule form and an app's quota and modems on
 * the People screen, and an app's incoming rule, choose whole modems or single slots of the
 * phone, and the API stores them.
 */
let ui: UiGateway;
let browser: Browser;
let phone: AndroidPhoneDouble;
let phoneId = '';
let modemId = '';

beforeAll(async () => {
  await buildUi();
  phone = new AndroidPhoneDouble();
  phone.simCardCount = 2;
  const port = await phone.start();
  ui = await startUiGateway({ simulatedModems: 1, phones: [phone.urlWithCredentials(port)] }, false, {
    phoneTiming: fastPhonePolling,
  });
  await vi.waitFor(
    async () => {
      const devices = await apiCall<{ id: string; simCards: unknown[]; modem: { kind?: string } }[]>(
        ui.baseUrl,
        'GET',
        '/devices',
      );
      const dual = devices.find((device) => device.modem.kind === 'android');
      expect(dual?.simCards).toHaveLength(2);
      phoneId = dual?.id ?? '';
      modemId = devices.find((device) => device !== dual)?.id ?? '';
    },
    { timeout: 20_000, interval: 100 },
  );
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
  await phone?.stop();
});

describe('choosing SIM slots in the window', () => {
  it('adds a routing rule for one SIM of the phone and a whole modem', async () => {
    const page = await newTab(await browser.newContext());
    await signIn(page, ui.baseUrl, ui);
    await openScreen(page, 'Routing');
    const form = page.getByRole('form', { name: 'Add a rule' });
    await form.getByLabel('Numbers starting with').fill('+49');
    const modems = form.getByRole('group', { name: 'Modems', exact: true });
    // The phone lists its slots under it; the single-SIM modem does not. The devices load after
    // the form shows: a count read at once may see none yet.
    await expect.poll(() => modems.getByRole('checkbox').count(), { timeout: 15_000 }).toBe(4);
    await modems.getByRole('checkbox', { name: /SIM 2$/ }).check();
    const fallback = form.getByRole('group', { name: /^Fallback modems/ });
    await fallback.getByRole('checkbox').last().check();
    await form.getByRole('button', { name: 'Add rule' }).click();
    await page
      .getByRole('table', { name: 'Routing rules' })
      .getByRole('cell', { name: '+49', exact: true })
      .waitFor();
    const stored = await apiCall<{ rules: unknown[] }>(ui.baseUrl, 'GET', '/gateway/v1/routing');
    expect(stored.rules).toMatchObject([
      { prefix: '+49', deviceIds: [{ deviceId: phoneId, simNumber: 2 }], fallbackDeviceIds: [modemId] },
    ]);
    // Both slots chosen one by one are the whole phone.
    await page.getByRole('button', { name: 'Edit rule 1' }).click();
    const edit = page.getByRole('form', { name: 'Edit rule 1' });
    await edit
      .getByRole('group', { name: 'Modems', exact: true })
      .getByRole('checkbox', { name: /SIM 1$/ })
      .check();
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await vi.waitFor(async () => {
      const rules = (
        await apiCall<{ rules: { deviceIds: unknown[] }[] }>(ui.baseUrl, 'GET', '/gateway/v1/routing')
      ).rules;
      expect(rules[0]?.deviceIds).toEqual([phoneId]);
    });
    await page.context().close();
  });

  it("changes an app's quota and lets it use only SIM 2 of the phone", async () => {
    await apiCall(ui.baseUrl, 'POST', '/gateway/v1/apps', { name: 'shop', password: 'shop-secret-1' });
    const page = await newTab(await browser.newContext());
    await signIn(page, ui.baseUrl, ui);
    await openScreen(page, 'People');
    const form = page.getByRole('form', { name: 'Quota and modems of shop' });
    await form.getByLabel('Messages a day').fill('5');
    await form.getByLabel('Resets at').fill('06:00');
    await form.getByLabel('Time zone').fill('Europe/Berlin');
    await form.getByLabel('Any modem').uncheck();
    await form
      .getByRole('group', { name: 'Allowed modems' })
      .getByRole('checkbox', { name: /SIM 2$/ })
      .check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Saved the quota and modems of shop.').waitFor();
    await page
      .getByRole('table', { name: 'Apps' })
      .getByText('0 of 5 today (resets 06:00 Europe/Berlin)')
      .waitFor();
    const [app] = await apiCall<unknown[]>(ui.baseUrl, 'GET', '/gateway/v1/apps');
    expect(app).toMatchObject({
      quota: { perDay: 5, resetAt: '06:00', timeZone: 'Europe/Berlin' },
      allowedDeviceIds: [{ deviceId: phoneId, simNumber: 2 }],
    });

    // A refused time zone shows as the API's words; emptied counts and "Any modem" lift both limits.
    await form.getByLabel('Time zone').fill('Mars/Olympus');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(/timeZone/).waitFor();
    await form.getByLabel('Time zone').fill('UTC');
    await form.getByLabel('Messages a day').fill('');
    await form.getByLabel('Any modem').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('table', { name: 'Apps' }).getByText('No quota').waitFor();
    const [lifted] = await apiCall<Record<string, unknown>[]>(ui.baseUrl, 'GET', '/gateway/v1/apps');
    expect(lifted?.quota).toBeUndefined();
    expect(lifted?.allowedDeviceIds).toBeUndefined();
    await page.context().close();
  });

  it('lets an app hear the incoming SMS of SIM 2 of the phone only', async () => {
    const page = await newTab(await browser.newContext());
    await signIn(page, ui.baseUrl, ui);
    await openScreen(page, 'People');
    const form = page.getByRole('form', { name: 'Incoming SMS for shop' });
    await form.getByLabel('Incoming SMS its webhooks hear').selectOption('devices');
    await form
      .getByRole('group', { name: 'Modems' })
      .getByRole('checkbox', { name: /SIM 2$/ })
      .check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('shop hears: those arriving on chosen modems.').waitFor();
    const [app] = await apiCall<unknown[]>(ui.baseUrl, 'GET', '/gateway/v1/apps');
    expect(app).toMatchObject({
      incoming: { mode: 'devices', deviceIds: [{ deviceId: phoneId, simNumber: 2 }] },
    });
    await page.context().close();
  });
});
