import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { pollUntil } from '../support/pollUntil.js';
import { apiCall, newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * Issue 50 item 9, in Chromium: staff tell the simulated modem, from its card, to fail the next
 * send to one number with a chosen error, and see that message end Failed in plain words while
 * a send to another number goes through.
 */
let ui: UiGateway;
let browser: Browser;

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway({ simulatedModems: 1 });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

interface MessageState {
  state: string;
}

async function sendTo(phoneNumber: string, text: string): Promise<string> {
  const sent = await apiCall<{ id: string }>(ui.baseUrl, 'POST', '/messages', {
    textMessage: { text },
    phoneNumbers: [phoneNumber],
  });
  return sent.id;
}

async function ended(id: string): Promise<string> {
  let state = '';
  await pollUntil(
    async () => {
      state = (await apiCall<MessageState>(ui.baseUrl, 'GET', `/messages/${id}`)).state;
      return state !== 'Pending' && state !== 'Processed';
    },
    { what: `message ${id} to end`, limitMs: 20_000, intervalMs: 200 },
  );
  return state;
}

describe('a simulated failure, chosen in the window', () => {
  it('fails the next send to the chosen number with the chosen error, and says so in words', async () => {
    const page = await newTab(browser);
    await signIn(page, ui.baseUrl);
    await openScreen(page, 'Modems');
    await page.getByRole('button', { name: 'Simulate a failed send' }).click();
    const form = page.getByRole('form', { name: 'Simulate a failed send' });
    await form.getByLabel('Error').selectOption({ label: 'Network out of order (+CMS ERROR 38)' });
    await form.getByLabel('Only to (optional)').fill('(555) 000-7777');
    await form.getByRole('button', { name: 'Fail them' }).click();
    await form.getByText('The next send to 5550007777 will fail with +CMS ERROR 38.').waitFor();

    const other = await sendTo('+15550008888', 'This one goes');
    const refused = await sendTo('+15550007777', 'What a failure looks like');
    expect(await ended(refused)).toBe('Failed');
    expect(await ended(other)).not.toBe('Failed');

    await openScreen(page, 'Messages');
    const row = page.locator('tr[data-message-id]').filter({ hasText: 'What a failure looks like' });
    await row.getByRole('button', { name: 'What a failure looks like' }).click();
    await page.getByText(/^The modem or the mobile network refused it \(.*\+CMS ERROR 38\)/).waitFor();
    await page.close();
  });
});
