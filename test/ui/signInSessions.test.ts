import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * Issue 14 item 13: sign-in shows the password on request, a second tab of the same browser is
 * signed in already, and the Basic password can be changed from the window.
 */
let ui: UiGateway;
let browser: Browser;

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway({}, true);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

describe('signing in', () => {
  it('shows the typed password on request', async () => {
    const page = await newTab(browser);
    await page.goto(`${ui.baseUrl}/ui/`);
    const password = page.getByLabel('Password');
    await password.fill('secret-typed');
    await expect(password.getAttribute('type')).resolves.toBe('password');
    await page.getByRole('button', { name: 'Show', pressed: false }).click();
    await expect(password.getAttribute('type')).resolves.toBe('text');
    await page.close();
  });

  it('keeps the session in a second tab, and signing out ends both', async () => {
    const context = await browser.newContext();
    try {
      const first = await newTab(context);
      await signIn(first, ui.baseUrl, ui);
      const second = await newTab(context);
      await second.goto(`${ui.baseUrl}/ui/#/messages`);
      await second.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
      await expect(second.getByLabel('Username').count()).resolves.toBe(0);
      await second.getByRole('button', { name: `Sign out ${ui.username}` }).click();
      await first.getByLabel('Username').waitFor();
    } finally {
      await context.close();
    }
  });

  it('changes the password: the old one and every token stop working, the open window stays signed in', async () => {
    const page = await newTab(browser);
    await signIn(page, ui.baseUrl, ui);
    const token = (await (
      await fetch(`${ui.baseUrl}/auth/token`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${ui.username}:${ui.password}`).toString('base64')}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ scopes: ['devices:list'] }),
      })
    ).json()) as { access_token: string };
    await openScreen(page, 'API access');
    const panel = page.getByRole('region', { name: 'Change the password' });
    // A wrong current password is refused there, without ending the window's session (issue 36).
    await panel.getByLabel('Current password').fill('not the password');
    await panel.getByLabel('New password (8 characters or more)').fill('a-new-password-42');
    await panel.getByLabel('Repeat the new password').fill('a-new-password-42');
    await panel.getByRole('button', { name: 'Change password' }).click();
    await panel.getByText(/currentPassword: not the current password/).waitFor();
    await panel.getByLabel('Current password').fill(ui.password);
    await panel.getByLabel('New password (8 characters or more)').fill('a-new-password-42');
    await panel.getByLabel('Repeat the new password').fill('a-new-password-4');
    await panel.getByText('The two passwords differ.').waitFor();
    await expect(panel.getByRole('button', { name: 'Change password' }).isDisabled()).resolves.toBe(true);
    await panel.getByLabel('Repeat the new password').fill('a-new-password-42');
    await panel.getByRole('button', { name: 'Change password' }).click();
    await panel.getByText(/^The password is changed\./).waitFor();
    // The change ended the live stream's token too; the window reads everything again once the
    // stream is back, and the answer stays on screen.
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await expect(page.locator('main#main').getAttribute('data-stale')).resolves.toBeNull();
    await expect(panel.getByText(/^The password is changed\./).isVisible()).resolves.toBe(true);
    await openScreen(page, 'Modems');
    await page.getByRole('region', { name: /^Modem / }).waitFor();
    const devices = await fetch(`${ui.baseUrl}/devices`, {
      headers: { Authorization: `Bearer ${token.access_token}` },
    });
    expect(devices.status).toBe(401);

    const other = await newTab(browser);
    await other.goto(`${ui.baseUrl}/ui/`);
    await other.getByLabel('Username').fill(ui.username);
    await other.getByLabel('Password').fill(ui.password);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByText('Wrong username or password').waitFor();
    await signIn(other, ui.baseUrl, { username: ui.username, password: 'a-new-password-42' });
    await other.close();
    await page.close();
  }, 120_000);
});
