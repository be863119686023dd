import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { pollUntil } from '../support/pollUntil.js';
import { apiCall, newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * Issue 36, items 1 and 4, in Chromium: where a balance pattern or a rule's pattern is set, the
 * window says that it was switched off for running out of time, until the pattern is changed.
 */

/** Backtracks through 2^n paths on any text of n characters without an X. */
const runaway = '(.|.)*X';

interface Disabled {
  patternDisabled?: { reason: string };
  balancePatternDisabled?: { reason: string };
}

let ui: UiGateway;
let browser: Browser;
let deviceId: string;

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway({ simulatedModems: 1 });
  browser = await launchBrowser();
  const devices = await api<{ id: string }[]>('GET', '/devices');
  deviceId = devices[0]?.id ?? '';
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  return apiCall<T>(ui.baseUrl, method, path, body);
}

function simulatedModem() {
  const modem = ui.gateway.simulatedModems[0];
  if (!modem) throw new Error('no simulated modem');
  return modem;
}

const openTabs: Page[] = [];
afterEach(async () => {
  await Promise.all(openTabs.splice(0).map((page) => page.close()));
});

async function signedIn(): Promise<Page> {
  const page = await newTab(browser);
  openTabs.push(page);
  await signIn(page, ui.baseUrl);
  return page;
}

describe('patterns switched off for running out of time', () => {
  it('the Balance & calls form says so beside the pattern, and not once another is typed', async () => {
    simulatedModem().setUssdService('*100#', { answer: 'Your balance is 12.50 EUR.' });
    await api('PUT', `/gateway/v1/devices/${deviceId}/operations`, {
      balanceCode: '*100#',
      balancePattern: runaway,
    });
    await api('POST', `/gateway/v1/devices/${deviceId}/balance`, {});

    const page = await signedIn();
    await openScreen(page, 'Modems');
    await page.getByRole('button', { name: 'Balance & calls' }).click();
    const form = page.getByRole('form', { name: 'Balance and calls' });
    await form
      .getByRole('alert')
      .getByText(/ran out of time/)
      .waitFor();
    await form.getByLabel('Amount pattern').fill('balance is ([\\d.]+)');
    expect(await form.getByRole('alert').count()).toBe(0);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Saved.').waitFor();
    const saved = await api<Disabled>('GET', `/gateway/v1/devices/${deviceId}/operations`);
    expect(saved.balancePatternDisabled).toBeUndefined();
  });

  it('the rules list marks the rule, and its editor says so beside the pattern', async () => {
    const rule = await api<{ id: string }>('POST', '/gateway/v1/rules', {
      name: 'Runaway',
      match: { kind: 'regex', pattern: runaway },
      action: { kind: 'reply', text: 'Never sent.' },
    });
    simulatedModem().injectIncoming({
      sender: '+447700900801',
      text: 'hello there, what are your opening hours today and tomorrow?',
    });
    await pollUntil(
      async () =>
        (await api<(Disabled & { id: string })[]>('GET', '/gateway/v1/rules')).some(
          (candidate) => candidate.id === rule.id && candidate.patternDisabled,
        ),
      { what: 'the rule to be switched off', limitMs: 30_000 },
    );

    const page = await signedIn();
    await page.goto(`${ui.baseUrl}/ui/#/rules`);
    await page.getByRole('heading', { level: 1, name: 'Auto-reply rules' }).waitFor();
    const rules = page.getByRole('list', { name: 'Rules in order' });
    const row = rules.getByRole('listitem').filter({ hasText: 'Runaway' });
    await row.getByText('Pattern off').waitFor();
    await row.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('form', { name: 'Rule' });
    await editor
      .getByRole('alert')
      .getByText(/ran out of time/)
      .waitFor();
    await editor.getByLabel('Pattern').fill('^hello');
    expect(await editor.getByRole('alert').count()).toBe(0);
    await editor.getByRole('button', { name: 'Save rule' }).click();
    await rules.getByText('Pattern off').waitFor({ state: 'detached' });
  });
});
