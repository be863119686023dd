import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { apiCall, newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * Issue 39, accounts in the window: an owner adds people, a viewer and an operator signed in
 * side by side see and may do different things, and the audit trail names who sent what.
 */
let ui: UiGateway;
let browser: Browser;

const olga = { username: 'olga', password: 'operator-pass-1' };
const victor = { username: 'victor', password: 'viewer-pass-12' };

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway();
  browser = await launchBrowser();
  await apiCall(ui.baseUrl, 'POST', '/gateway/v1/users', {
    name: olga.username,
    password: olga.password,
    role: 'operator',
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

async function signedIn(login: { username: string; password: string }): Promise<Page> {
  const context = await browser.newContext();
  const page = await newTab(context);
  await signIn(page, ui.baseUrl, login);
  return page;
}

const sidebarLinks = (page: Page) =>
  page.getByRole('navigation', { name: 'Screens' }).getByRole('link').allTextContents();

describe('people and roles in the window', () => {
  it('lets the owner add a viewer from the People screen', async () => {
    const page = await signedIn(ui);
    await openScreen(page, 'People');
    const form = page.getByRole('form', { name: 'Add a person' });
    await form.getByLabel('Name').fill(victor.username);
    await form.getByLabel('Password (8 characters or more)').fill(victor.password);
    await form.getByLabel('Role').selectOption('viewer');
    await form.getByRole('button', { name: 'Add' }).click();
    await form.getByText('victor can sign in now, as viewer.').waitFor();
    await page
      .getByRole('table', { name: 'People' })
      .getByRole('cell', { name: 'victor', exact: true })
      .waitFor();
    await page.context().close();
  });

  it('lets the owner add an app with a daily quota, which the app then keeps to, its row counting it', async () => {
    const page = await signedIn(ui);
    await openScreen(page, 'People');
    const form = page.getByRole('form', { name: 'Add an app' });
    await form.getByLabel('App name').fill('shop');
    await form.getByLabel('App password (8 characters or more)').fill('shop-secret-1');
    await form.getByLabel('Messages a day').fill('1');
    await form.getByLabel('Time zone').fill('UTC');
    await form.getByRole('button', { name: 'Add app' }).click();
    await form.getByText('shop can use the API now with its own name and password.').waitFor();
    await page.getByRole('table', { name: 'Apps' }).getByText('0 of 1 today (resets 00:00 UTC)').waitFor();
    await page.context().close();

    const send = () =>
      fetch(`${ui.baseUrl}/message`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from('shop:shop-secret-1').toString('base64')}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ textMessage: { text: 'From the shop' }, phoneNumbers: ['+15551239002'] }),
      });
    expect((await send()).status).toBe(202);
    const over = await send();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);

    // Its row says the quota is used up, where the owner looks for why the app is refused.
    const again = await signedIn(ui);
    await openScreen(again, 'People');
    await again.getByRole('table', { name: 'Apps' }).getByText('1 of 1 today (resets 00:00 UTC)').waitFor();
    await again.context().close();
  });

  it('lets the owner make SMPP logins for a person and an app, and an operator reset their own', async () => {
    const owner = await signedIn(ui);
    await openScreen(owner, 'People');
    const people = owner.getByRole('table', { name: 'People' });
    await people.getByRole('button', { name: 'Make an SMPP login for olga' }).click();
    const made = people.getByText(/^SMPP login of olga: system_id olga, password (\S{8})\./);
    await made.waitFor();
    await people.getByText('system_id olga', { exact: true }).waitFor();
    const apps = owner.getByRole('table', { name: 'Apps' });
    await apps.getByRole('button', { name: 'Make an SMPP login for shop' }).click();
    await apps.getByText(/^SMPP login of shop: system_id shop, password \S{8}\./).waitFor();
    await apps.getByText('system_id shop', { exact: true }).waitFor();
    const listed = await apiCall<{ name: string; smppSystemId?: string }[]>(
      ui.baseUrl,
      'GET',
      '/gateway/v1/apps',
    );
    expect(listed.find((app) => app.name === 'shop')?.smppSystemId).toBe('shop');
    const firstPassword = /password (\S{8})\./.exec((await made.textContent()) ?? '')?.[1];
    await owner.context().close();

    // The operator finds theirs in the sidebar and takes a new password.
    const operator = await signedIn(olga);
    const own = operator.getByRole('group').filter({ hasText: 'My SMPP login' });
    await operator.getByText('My SMPP login').click();
    await own.getByText('system_id olga', { exact: true }).waitFor();
    await own.getByRole('button', { name: 'New SMPP password for olga' }).click();
    const reset = own.getByText(/^SMPP login of olga: system_id olga, password (\S{8})\./);
    await reset.waitFor();
    const secondPassword = /password (\S{8})\./.exec((await reset.textContent()) ?? '')?.[1];
    expect(secondPassword).toBeDefined();
    expect(secondPassword).not.toBe(firstPassword);
    await operator.context().close();
  });

  it("lets the owner choose which incoming SMS the app's webhooks hear", async () => {
    const [modem] = await apiCall<{ id: string }[]>(ui.baseUrl, 'GET', '/devices');
    const incomingOf = async () =>
      (await apiCall<{ name: string; incoming?: unknown }[]>(ui.baseUrl, 'GET', '/gateway/v1/apps')).find(
        (app) => app.name === 'shop',
      )?.incoming;
    const page = await signedIn(ui);
    await openScreen(page, 'People');
    const form = page.getByRole('form', { name: 'Incoming SMS for shop' });
    await form.getByLabel('Incoming SMS its webhooks hear').selectOption('devices');
    await form.getByRole('group', { name: 'Modems' }).getByRole('checkbox').first().check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('shop hears: those arriving on chosen modems.').waitFor();
    expect(await incomingOf()).toEqual({ mode: 'devices', deviceIds: [modem?.id] });

    await form.getByLabel('Incoming SMS its webhooks hear').selectOption('replies');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('shop hears: replies to this app.').waitFor();
    expect(await incomingOf()).toEqual({ mode: 'replies' });
    // Reopened, the form shows the rule as stored.
    await openScreen(page, 'Dashboard');
    await openScreen(page, 'People');
    expect(await form.getByLabel('Incoming SMS its webhooks hear').inputValue()).toBe('replies');
    await page.context().close();
  });

  it('shows a viewer neither People, API access nor the New message button', async () => {
    const page = await signedIn(victor);
    await page.getByText('victor (viewer)').waitFor();
    // Every person's window follows the live event stream.
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const links = await sidebarLinks(page);
    expect(links).toContain('Messages');
    expect(links).not.toContain('People');
    expect(links).not.toContain('API access');
    await openScreen(page, 'Messages');
    await expect(page.getByRole('button', { name: 'New message' }).count()).resolves.toBe(0);
    await page.context().close();
  });

  it('offers a viewer no control the gateway would refuse, and says in words what their role allows', async () => {
    const page = await signedIn(victor);
    await page.getByText('victor (viewer)').waitFor();
    const absent = async (screen: string, names: readonly (string | RegExp)[], note?: RegExp) => {
      await openScreen(page, screen);
      if (note) await page.getByText(note).waitFor();
      for (const name of names) {
        await expect(page.getByRole('button', { name }).count(), `${screen}: ${name}`).resolves.toBe(0);
      }
    };
    // Each screen names what is seen there: "the campaigns and their reports", "the settings"…
    const roleNote = (what: string) =>
      new RegExp(`Your role \\(viewer\\) lets you see ${what}.*, not change them`);
    await absent('Dashboard', ['Pause sending', 'Resume sending']);
    await absent('Contacts', ['New contact', 'Import CSV', 'Add group'], roleNote('the contacts and groups'));
    await absent('Templates', ['New template'], roleNote('the templates'));
    await absent('Bulk send', ['Preview'], roleNote('the campaigns'));
    await expect(page.getByRole('region', { name: 'New bulk send' }).count()).resolves.toBe(0);
    await absent('Auto-reply', ['Add rule'], roleNote('the rules'));
    await absent('Opt-outs', ['Add to the list'], roleNote('the list'));
    await absent('Modems', ['Add a modem', 'Rename', 'Remove', 'Test send'], roleNote('the modems'));
    await absent('Webhooks', ['Add webhook'], roleNote('the webhooks'));
    await expect(page.getByRole('heading', { name: 'Add a webhook' }).count()).resolves.toBe(0);
    await absent('Inbox', ['Re-read modem storage']);
    await absent('Settings', ['Save settings', 'Discard changes'], roleNote('the settings'));
    // The settings are shown, not editable: no field takes a change it could not save.
    const fields = page.locator('form.settings').locator('input, select, textarea');
    expect(await fields.count()).toBeGreaterThan(5);
    expect(
      await fields.evaluateAll((inputs) => inputs.filter((input) => !input.matches(':disabled')).length),
    ).toBe(0);
    // No scope's name reaches the person.
    expect(await page.locator('main').textContent()).not.toMatch(/settings:write|contacts:write/);
    await page.context().close();
  });

  it('still offers an operator what their role allows', async () => {
    const page = await signedIn(olga);
    await page.getByText('olga (operator)').waitFor();
    await openScreen(page, 'Contacts');
    await page.getByRole('button', { name: 'New contact' }).waitFor();
    await expect(page.getByText(/Your role/).count()).resolves.toBe(0);
    await openScreen(page, 'Settings');
    await page.getByText(/Your role \(operator\) lets you see the settings, not change them/).waitFor();
    await page.context().close();
  });

  it('lets an operator send, and names them in the message and the audit trail the owner reads', async () => {
    const operator = await signedIn(olga);
    await operator.getByText('olga (operator)').waitFor();
    expect(await sidebarLinks(operator)).not.toContain('People');
    await openScreen(operator, 'Messages');
    await operator.getByRole('button', { name: 'New message' }).click();
    await operator.getByLabel('Recipients').fill('+15551239001');
    await operator.getByLabel('Message', { exact: true }).fill('Sent by the operator');
    await operator.getByRole('button', { name: 'Send', exact: true }).click();
    await operator.locator('tr[data-message-id]').filter({ hasText: 'Sent by the operator' }).waitFor();
    await operator.context().close();

    const owner = await signedIn(ui);
    await openScreen(owner, 'Messages');
    const row = owner.locator('tr[data-message-id]').filter({ hasText: 'Sent by the operator' });
    await row.getByRole('button', { name: 'Sent by the operator' }).click();
    const detail = owner.locator('.detail');
    await detail.getByText('Sent by', { exact: true }).waitFor();
    await expect(detail.locator('dt:text-is("Sent by") + dd').textContent()).resolves.toBe('olga');

    await openScreen(owner, 'People');
    const trail = owner.getByRole('table', { name: 'Audit trail' });
    const sent = trail.getByRole('row').filter({ hasText: 'POST /messages' });
    await sent.first().waitFor();
    await expect(sent.first().getByRole('cell').nth(1).textContent()).resolves.toBe('olga');
    await owner.context().close();
  });

  it('lets a person change their own password and stay signed in', async () => {
    const petra = { username: 'petra', password: 'petra-first-1' };
    await apiCall(ui.baseUrl, 'POST', '/gateway/v1/users', {
      name: petra.username,
      password: petra.password,
      role: 'viewer',
    });
    const page = await signedIn(petra);
    await page.getByText('Change my password').click();
    const form = page.getByRole('form', { name: 'Change my password' });
    await form.getByLabel('Current password').fill('not-her-password');
    await form.getByLabel('New password (8 characters or more)').fill('petra-second-2');
    await form.getByLabel('Repeat the new password').fill('petra-second-2');
    await form.getByRole('button', { name: 'Change' }).click();
    await page.getByText(/currentPassword: not the current password/).waitFor();

    await form.getByLabel('Current password').fill(petra.password);
    await form.getByRole('button', { name: 'Change' }).click();
    await page.getByText('Your password is changed.').waitFor();
    // Signed in again with the new password: the window keeps working.
    await openScreen(page, 'Messages');
    await page.getByTitle('Signed in as').getByText('petra (viewer)').waitFor();
    const answers = async (password: string) =>
      (
        await fetch(`${ui.baseUrl}/gateway/v1/me`, {
          headers: { Authorization: `Basic ${Buffer.from(`petra:${password}`).toString('base64')}` },
        })
      ).status;
    expect(await answers(petra.password)).toBe(401);
    expect(await answers('petra-second-2')).toBe(200);
    await page.context().close();
  });

  it('asks each person to sign in to the desktop window once people other than the owner exist', async () => {
    const context = await browser.newContext();
    const page = await newTab(context);
    // Electron's binary is absent here: this stands in for the preload's window.desktop facade,
    // whose core hands out no owner session once there are other people (electron/ipcChannels.ts).
    await page.addInitScript(`
      window.desktop = {
        getConnection: async () => ({ baseUrl: ${JSON.stringify(ui.baseUrl)} }),
        getPreferences: async () => ({}),
        setPreference: async () => ({}),
        openApiDocs: async () => undefined,
        getFirstRunLogin: async () => ({ username: 'sms', password: 'generated-once-123' }),
        confirmFirstRunLoginSaved: async () => undefined,
      };
    `);
    await page.goto(`${ui.baseUrl}/ui/`);
    await page.getByLabel('Username').fill(olga.username);
    await page.getByLabel('Password').fill(olga.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTitle('Signed in as').getByText('olga (operator)').waitFor();
    // The owner's generated login is the owner's to see, not hers.
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByText('generated-once-123').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out olga' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await context.close();
  });
});
