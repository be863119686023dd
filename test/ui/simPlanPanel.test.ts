import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { apiCall, newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * Issue 39, SIM plans in the window: the owner sets a SIM's plan on its modem's panel, sees the
 * API's refusal of a bad field, and sees the SIM's use against each cap; a viewer sees the use
 * and no form.
 */
let ui: UiGateway;
let browser: Browser;
const viewer = { name: 'vera', password: 'viewer-pass-12' };

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

async function openPlan(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'SIM plan' });
  if ((await toggle.getAttribute('aria-expanded')) === 'true') await toggle.click();
  await toggle.click();
}

describe('the SIM plan panel', () => {
  it('sets a plan, names a bad field, and shows the use against each cap', async () => {
    const context = await browser.newContext();
    const page = await newTab(context);
    await signIn(page, ui.baseUrl, ui);
    await openScreen(page, 'Modems');
    await openPlan(page);
    const form = page.getByRole('form', { name: 'SIM 1 plan' });
    await page.getByText('No plan: this SIM sends without caps.').waitFor();

    await form.getByLabel('Per day').fill('5');
    await form.getByLabel('Distinct recipients').fill('3');
    await form.getByLabel('Per week').fill('2.5');
    await form.getByRole('button', { name: 'Save plan' }).click();
    const refusal = form.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('perWeek');

    await form.getByLabel('Per week').fill('');
    // A picker of the zones the browser knows, not free text.
    await form.getByLabel('Time zone').selectOption('UTC');
    await form.getByLabel('When capped').selectOption('spill');
    await form.getByRole('button', { name: 'Save plan' }).click();
    await form.getByText('The plan of SIM 1 is saved.').waitFor();
    const use = page.getByRole('table', { name: 'Use of SIM 1' });
    await use.getByText('0 of 5 messages').waitFor();
    await use.getByText('0 of 3 recipients').waitFor();

    const [device] = await apiCall<{ id: string }[]>(ui.baseUrl, 'GET', '/devices');
    const plans = await apiCall<{ plans: { deviceId: string; whenCapped: string }[] }>(
      ui.baseUrl,
      'GET',
      '/gateway/v1/plans',
    );
    expect(plans.plans).toMatchObject([{ deviceId: device?.id, whenCapped: 'spill' }]);

    const ids: string[] = [];
    for (const number of ['+15551230001', '+15551230002']) {
      const sent = await apiCall<{ id: string }>(ui.baseUrl, 'POST', '/messages', {
        textMessage: { text: 'counted by the plan' },
        phoneNumbers: [number],
      });
      ids.push(sent.id);
    }
    await vi.waitFor(
      async () => {
        for (const id of ids) {
          const message = await apiCall<{ state: string }>(ui.baseUrl, 'GET', `/messages/${id}`);
          expect(message.state).not.toBe('Pending');
        }
      },
      { timeout: 30_000, interval: 200 },
    );
    await openPlan(page);
    await page.getByRole('table', { name: 'Use of SIM 1' }).getByText('2 of 5 messages').waitFor();
    await page.getByRole('table', { name: 'Use of SIM 1' }).getByText('2 of 3 recipients').waitFor();
    // Reopened, the form shows the plan as stored.
    expect(await page.getByRole('form', { name: 'SIM 1 plan' }).getByLabel('When capped').inputValue()).toBe(
      'spill',
    );

    // Capped: the use turns red and says so, the modem's card says until when, and the Dashboard
    // names the modem (not its id) for the message that waits.
    const capForm = page.getByRole('form', { name: 'SIM 1 plan' });
    await capForm.getByLabel('Per day').fill('2');
    await capForm.getByLabel('When capped').selectOption('hold');
    await capForm.getByRole('button', { name: 'Save plan' }).click();
    await capForm.getByText('The plan of SIM 1 is saved.').waitFor();
    await page
      .getByRole('table', { name: 'Use of SIM 1' })
      .getByText('2 of 2 messages per day — capped')
      .waitFor();
    await page.getByText('those sent before the plan was saved too').waitFor();
    await apiCall(ui.baseUrl, 'POST', '/messages', {
      textMessage: { text: 'waits for the reset' },
      phoneNumbers: ['+15551230001'],
    });
    await openScreen(page, 'Modems');
    const capNote = page.getByText(/SIM 1 is capped until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    await capNote.waitFor();
    expect(await capNote.locator('..').textContent()).toContain('it has sent 2 of 2 messages per day.');
    await openScreen(page, 'Dashboard');
    const banner = page.getByText(/SIM 1 of .+ has used its cap; messages for it wait until \d{4}-/);
    await banner.waitFor();
    const bannerText = (await banner.textContent()) ?? '';
    expect(bannerText).not.toContain(device?.id ?? 'no id');
    expect(bannerText).not.toMatch(/T\d\d:\d\d:\d\d/);
    await context.close();

    // A viewer sees the use, and no form to change the plan.
    await apiCall(ui.baseUrl, 'POST', '/gateway/v1/users', { ...viewer, role: 'viewer' });
    const viewerContext = await browser.newContext();
    const viewerPage = await newTab(viewerContext);
    await signIn(viewerPage, ui.baseUrl, { username: viewer.name, password: viewer.password });
    await openScreen(viewerPage, 'Modems');
    await openPlan(viewerPage);
    await viewerPage.getByRole('table', { name: 'Use of SIM 1' }).getByText('2 of 2 messages').waitFor();
    expect(await viewerPage.getByRole('form', { name: 'SIM 1 plan' }).count()).toBe(0);
    await viewerContext.close();
  });
});
