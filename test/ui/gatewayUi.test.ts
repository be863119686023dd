import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../server/doors/http/contentSecurityPolicy.js';
import type { Gateway } from '../../server/index.js';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { ownerSessionToken } from '../support/ownerSession.js';
import { startLoopbackServer } from './loopbackServer.js';
import {
  newTab,
  signIn,
  startUiGateway,
  statusLine,
  type UiGateway,
  apiCall as uiApiCall,
  uiPassword,
  uiUser,
} from './uiGateway.js';

/**
 * The React UI in real headless Chromium against the real headless gateway with one simulated
 * modem, at the smallest window size we support (1024×700).
 */
const screenshotDir = 'test-artifacts/screens';
const viewport = { width: 1024, height: 700 };
const screens = ['dashboard', 'messages', 'inbox', 'modems', 'webhooks', 'logs', 'settings', 'api'] as const;
/**
 * The browser zone of the filter tests, with its offset east of UTC: not a whole hour, so a From/To
 * that lost its zone on the way to the server would move the range and show the wrong rows.
 */
const filterZone = { timezoneId: 'Asia/Kolkata', offsetMinutes: 330 };

let ui: UiGateway;
let gateway: Gateway;
let baseUrl: string;
let browser: Browser;

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway();
  gateway = ui.gateway;
  baseUrl = ui.baseUrl;
  browser = await launchBrowser();
  mkdirSync(screenshotDir, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

function newPage(zone?: { timezoneId: string }): Promise<Page> {
  return newTab(browser, { viewport, ...(zone ? { timezoneId: zone.timezoneId } : {}) });
}

async function signedInPage(zone?: { timezoneId: string }): Promise<Page> {
  const page = await newPage(zone);
  await signIn(page, baseUrl);
  return page;
}

/** A direct API call with the Basic user, to set the scene or check what the UI did. */
function apiCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  return uiApiCall<T>(baseUrl, method, path, body);
}

async function apiGet<T>(path: string): Promise<T> {
  return apiCall<T>('GET', path);
}

async function simulatedDevice(): Promise<{ id: string; name: string }> {
  const [device] = await apiGet<{ id: string; name: string }[]>('/devices');
  if (!device) throw new Error('the simulated modem is not listed');
  return device;
}

async function messageReaching(id: string, state: string): Promise<void> {
  await expect
    .poll(async () => (await apiGet<{ state: string }>(`/messages/${id}`)).state, { timeout: 15_000 })
    .toBe(state);
}

/** What a user types into `<input type="datetime-local">` for an instant, in `filterZone`. */
function localInput(ms: number): string {
  return new Date(ms + filterZone.offsetMinutes * 60_000).toISOString().slice(0, 16);
}

async function openScreen(page: Page, screen: string, heading: string): Promise<void> {
  await page.goto(`${baseUrl}/ui/#/${screen}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

describe('the gateway UI in Chromium', () => {
  it('refuses a wrong password and says so', async () => {
    const page = await newPage();
    await page.goto(`${baseUrl}/ui/`);
    await page.getByLabel('Username').fill(uiUser);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Wrong username or password');
    await page.close();
  });

  it('signs in with the gateway username and password and opens the live stream', async () => {
    const page = await signedInPage();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    // The session survives a reload of the tab (sessionStorage), without a second login.
    await page.reload();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    await page.close();
  });

  it('shows a message sent from Compose reaching Sent without a reload', async () => {
    const page = await signedInPage();
    await openScreen(page, 'messages', 'Messages');
    // From "Skip to content", past the status bar's links, Tab soon reaches "New message".
    await page.getByRole('link', { name: 'Skip to content' }).press('Enter');
    const focused: string[] = [];
    while (focused.length < 6 && focused.at(-1) !== 'New message') {
      await page.keyboard.press('Tab');
      focused.push((await page.evaluate<string | undefined>('document.activeElement?.textContent')) ?? '');
    }
    expect(focused.at(-1), `focus went ${focused.join(' → ')}`).toBe('New message');
    expect(focused.length).toBeLessThanOrEqual(4);
    await page.getByRole('button', { name: 'New message' }).click();
    await page.getByLabel('Recipients').fill('+15551230001');
    await page.getByLabel('Message', { exact: true }).fill('Your order is ready');
    await expect(page.locator('.counter').textContent()).resolves.toContain('1 SMS part');
    // Without a delivery report the simulated modem's message ends in Sent, not Delivered.
    await page.getByLabel('Delivery report').uncheck();
    const compose = page.getByRole('form', { name: 'Compose message' });
    const device = await simulatedDevice();
    await compose.getByLabel('Modem').selectOption(device.id);
    // A label wrapping a select also holds its options' text: "SIM By settings SIM 1".
    await compose.getByLabel(/^SIM/).selectOption('1');
    await compose.getByLabel('Priority').fill('5');
    await compose.getByLabel('Expires after (s)').fill('3600');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    // The cleared form's Send is disabled: the focus waits in Recipients for the next message.
    await compose.getByText('Queued for +15551230001.').waitFor();
    await expect(page.evaluate<string | undefined>('document.activeElement?.id')).resolves.toMatch(
      /recipients$/,
    );
    const row = page.locator('tr[data-message-id]').filter({ hasText: 'Your order is ready' });
    await row.getByText('Sent', { exact: true }).waitFor({ timeout: 15_000 });
    // Every compose option reached the stored message.
    const stored = await apiGet<{ validUntil?: string }>(
      `/messages/${await row.getAttribute('data-message-id')}`,
    );
    expect(stored).toMatchObject({
      deviceId: device.id,
      simulated: true,
      simNumber: 1,
      priority: 5,
      withDeliveryReport: false,
    });
    // It went through the simulator: the list and the detail say so.
    await row.getByText('Simulated', { exact: true }).waitFor();
    expect(Date.parse(stored.validUntil ?? '') - Date.now()).toBeGreaterThan(3_500_000);
    expect(Date.parse(stored.validUntil ?? '') - Date.now()).toBeLessThanOrEqual(3_600_000);
    await row.getByRole('button', { name: 'Your order is ready' }).click();
    await page.locator('.timeline').getByText('Processed').waitFor();
    await page.locator('.detail').getByText('the built-in simulator: no phone received it').waitFor();
    await page.screenshot({ path: join(screenshotDir, 'messages-detail.png') });
    // The search filter goes to the server and back.
    await page.getByLabel('Search').fill('no such text anywhere');
    await page.getByText('No messages match.').waitFor();
    await page.getByLabel('Search').fill('order is ready');
    await row.waitFor();
    await page.close();
  });

  it('says on its row why a Pending message waits, and cancels it while sending is paused', async () => {
    gateway.setSendingPaused(true);
    try {
      const page = await signedInPage();
      await openScreen(page, 'messages', 'Messages');
      await page.getByRole('button', { name: 'New message' }).click();
      await page.getByLabel('Recipients').fill('+15551230002');
      await page.getByLabel('Message', { exact: true }).fill('Please call us back');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const row = page.locator('tr[data-message-id]').filter({ hasText: 'Please call us back' });
      await row.getByText('Pending', { exact: true }).waitFor();
      await row.getByText('Waits: sending is paused').waitFor();
      await row.getByRole('button', { name: 'Please call us back' }).click();
      await page.locator('.detail').getByRole('button', { name: 'Cancel message to +15551230002' }).click();
      await page.locator('.detail').getByRole('button', { name: 'Yes, cancel' }).click();
      await row.getByText('Cancelled', { exact: true }).waitFor();
      await expect(page.getByRole('button', { name: /^Cancel message/ }).count()).resolves.toBe(0);
      await page.close();
    } finally {
      gateway.setSendingPaused(false);
    }
  });

  it('narrows Messages by state, modem and period, pages past 50 rows and exports only the matches', async () => {
    const send = (text: string) =>
      apiCall<{ id: string }>('POST', '/messages', {
        textMessage: { text },
        phoneNumbers: ['+15551230010'],
        withDeliveryReport: false,
      });
    gateway.simulatedModems[0]?.failSends(500, 1);
    const refused = await send('Refused by the network');
    await messageReaching(refused.id, 'Failed');
    const reached = await send('Reached the phone');
    await messageReaching(reached.id, 'Sent');
    // Queued while paused and cancelled at once, so no modem ever takes them; 55 make a second page.
    gateway.setSendingPaused(true);
    try {
      const fillers = await Promise.all(Array.from({ length: 55 }, (_, index) => send(`Filler ${index}`)));
      await Promise.all(fillers.map((filler) => apiCall('DELETE', `/messages/${filler.id}`)));
    } finally {
      gateway.setSendingPaused(false);
    }
    const total = (await apiGet<unknown[]>('/messages?limit=500')).length;
    expect(total).toBeGreaterThan(50);
    expect(total).toBeLessThanOrEqual(100);

    const page = await signedInPage(filterZone);
    await openScreen(page, 'messages', 'Messages');
    const rows = page.locator('tr[data-message-id]');
    const row = (text: string) => rows.filter({ hasText: text });
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await pager.getByText(`1–50 of ${total}`).waitFor();
    const firstPage = await rows.allTextContents();
    await pager.getByRole('button', { name: 'Older' }).click();
    await pager.getByText(`51–${total} of ${total}`).waitFor();
    const secondPage = await rows.allTextContents();
    expect(secondPage).toHaveLength(total - 50);
    expect(secondPage.filter((text) => firstPage.includes(text))).toEqual([]);

    // State: from the second page, since a new filter starts again at the first.
    await page.getByLabel('State').selectOption('Failed');
    await row('Reached the phone').waitFor({ state: 'detached' });
    await expect(rows.allTextContents()).resolves.toEqual([
      expect.stringContaining('Refused by the network'),
    ]);
    await page.getByLabel('State').selectOption('Sent');
    await row('Refused by the network').waitFor({ state: 'detached' });
    await row('Reached the phone').waitFor();
    await page.getByLabel('State').selectOption('');
    await row('Filler').first().waitFor();

    // Modem: the cancelled fillers never had one.
    await page.getByLabel('Modem').selectOption((await simulatedDevice()).id);
    await row('Filler').first().waitFor({ state: 'detached' });
    await row('Reached the phone').waitFor();
    await page.getByLabel('Modem').selectOption('');

    // Period, typed in the browser's zone.
    const now = Date.now();
    await page.getByLabel('From', { exact: true }).fill(localInput(now + 10 * 60_000));
    await page.getByText('No messages match.').waitFor();
    await page.getByLabel('From', { exact: true }).fill(localInput(now - 10 * 60_000));
    await pager.getByText(`1–50 of ${total}`).waitFor();
    await page.getByLabel('From', { exact: true }).fill('');
    await page.getByLabel('To', { exact: true }).fill(localInput(now - 10 * 60_000));
    await page.getByText('No messages match.').waitFor();
    await page.getByLabel('To', { exact: true }).fill('');

    // The export is every page of the current filter, and only that.
    await page.getByLabel('State').selectOption('Failed');
    await row('Refused by the network').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path()) ?? '', 'utf8');
    expect(csv).toContain('Refused by the network');
    expect(csv).not.toContain('Reached the phone');
    expect(csv).not.toContain('Filler');
    await page.close();
  });

  it('keeps page 1 as the server lists it while older messages change and new ones wait behind a bar', async () => {
    const send = (text: string) =>
      apiCall<{ id: string }>('POST', '/messages', { textMessage: { text }, phoneNumbers: ['+15551230020'] });
    const serverTotal = async () => {
      const response = await fetch(`${baseUrl}/messages?limit=1`, {
        headers: { Authorization: `Basic ${Buffer.from(`${uiUser}:${uiPassword}`).toString('base64')}` },
      });
      return Number(response.headers.get('x-total-count'));
    };
    gateway.setSendingPaused(true);
    try {
      const burst: { id: string }[] = [];
      for (let index = 0; index < 55; index++) burst.push(await send(`Live list ${index}`));
      const page = await signedInPage();
      await openScreen(page, 'messages', 'Messages');
      const rows = page.locator('tr[data-message-id]');
      const shownIds = () =>
        rows.evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-message-id')));
      const pager = page.getByRole('navigation', { name: 'Pages' });
      const before = await serverTotal();
      await pager.getByText(`1–50 of ${before}`).waitFor();
      const shownBefore = await shownIds();

      // State changes of messages on page 2 (the five oldest of the burst) are not new messages.
      for (const message of burst.slice(0, 5)) await apiCall('DELETE', `/messages/${message.id}`);
      // New messages are counted at once and shown only when asked for.
      for (let index = 0; index < 3; index++) await send(`Live arrival ${index}`);
      const bar = page.getByRole('button', { name: '3 new messages — show' });
      await bar.waitFor();
      expect(await serverTotal()).toBe(before + 3);
      await pager.getByText(`1–50 of ${before + 3}`).waitFor();
      expect(await shownIds()).toEqual(shownBefore);

      await bar.click();
      const serverPage = await apiGet<{ id: string }[]>('/messages?limit=50');
      await expect.poll(shownIds).toEqual(serverPage.map((message) => message.id));
      await page.close();
    } finally {
      gateway.setSendingPaused(false);
    }
  });

  it("shows the gateway's today on the Dashboard in any browser zone, and pauses sending until a person resumes it, across a restart", async () => {
    // A zone already on another date than the gateway's: UTC+14 or UTC−12, 26 h apart.
    const gatewayNow = new Date();
    const plus14 = new Date(gatewayNow.getTime() + 14 * 3_600_000).getUTCDate() !== gatewayNow.getDate();
    const page = await signedInPage({ timezoneId: plus14 ? 'Pacific/Kiritimati' : 'Etc/GMT+12' });
    // The day's counts follow the messages' commits: the refused message of an earlier case is
    // counted once its Failed state is written, which a loaded machine may take a moment for.
    const todayNow = async () =>
      (await apiGet<{ sent: number; failed: number }[]>('/gateway/v1/stats/daily')).at(-1);
    await expect.poll(async () => (await todayNow())?.failed ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
    await openScreen(page, 'dashboard', 'Dashboard');
    const tile = (label: string) => page.locator('.tile').filter({ hasText: label }).locator('.tile-value');
    // Messages of earlier cases may still be going out: each tile is compared with the gateway's
    // count read at the same moment, until they agree.
    const tileShows = (label: string, count: 'sent' | 'failed') => async () =>
      (await tile(label).textContent()) === String((await todayNow())?.[count]);
    await expect.poll(tileShows('Failed today', 'failed'), { timeout: 10_000 }).toBe(true);
    await expect.poll(tileShows('Sent today', 'sent'), { timeout: 10_000 }).toBe(true);
    try {
      await page.getByRole('button', { name: 'Pause sending' }).click();
      // The status bar on every screen says so (it re-reads the status every 5 s).
      await statusLine(page, /^Sending is paused/);
      await expect(apiGet('/gateway/v1/status')).resolves.toMatchObject({ sendingPaused: true });
      // A person's decision: the gateway comes back paused, and the window says so at once.
      await gateway.stop();
      await ui.restart();
      gateway = ui.gateway;
      await page.reload();
      await statusLine(page, /^Sending is paused/);
      await expect(apiGet('/gateway/v1/status')).resolves.toMatchObject({ sendingPaused: true });
      await page.getByRole('button', { name: 'Resume sending' }).click();
      await page.getByText(/^Sending is paused/).waitFor({ state: 'detached' });
      await expect(apiGet('/gateway/v1/status')).resolves.toMatchObject({ sendingPaused: false });
    } finally {
      gateway.setSendingPaused(false);
    }
    await page.close();
  });

  it('shows an SMS injected at the simulated modem in the Inbox at once', async () => {
    const page = await signedInPage();
    await openScreen(page, 'inbox', 'Inbox');
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await page.locator('.panel .empty, .panel table').first().waitFor();
    gateway.simulatedModems[0]?.injectIncoming({ sender: '+15557654321', text: 'Hello from a phone' });
    await page.getByRole('row').filter({ hasText: 'Hello from a phone' }).waitFor({ timeout: 15_000 });
    await expect(
      page.getByRole('row').filter({ hasText: 'Hello from a phone' }).textContent(),
    ).resolves.toContain('+15557654321');
    await page.close();
  });

  it('narrows the Inbox by type, search and period', async () => {
    const page = await signedInPage(filterZone);
    await openScreen(page, 'inbox', 'Inbox');
    const textRow = page.getByRole('row').filter({ hasText: 'Hello from a phone' });
    const dataRow = page.getByRole('row').filter({ hasText: '+15550009999' });
    await textRow.waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    gateway.simulatedModems[0]?.injectIncoming({
      sender: '+15550009999',
      data: { bytes: new Uint8Array([1, 2, 3]), port: 4242 },
    });
    // A new message waits behind the bar instead of pushing the listed rows down.
    await page.getByRole('button', { name: '1 new received message — show' }).click({ timeout: 15_000 });
    await dataRow.getByText('Data SMS', { exact: true }).waitFor();
    await page.getByLabel('Type').selectOption('SMS');
    await dataRow.waitFor({ state: 'detached' });
    await textRow.waitFor();
    await page.getByLabel('Type').selectOption('DATA_SMS');
    await textRow.waitFor({ state: 'detached' });
    await dataRow.waitFor();
    await page.getByLabel('Type').selectOption('');
    await page.getByLabel('Search').fill('from a phone');
    await dataRow.waitFor({ state: 'detached' });
    await textRow.waitFor();
    await page.getByLabel('From', { exact: true }).fill(localInput(Date.now() + 10 * 60_000));
    await page.getByText('No received messages match.').waitFor();
    await page.getByLabel('From', { exact: true }).fill(localInput(Date.now() - 10 * 60_000));
    await textRow.waitFor();
    await page.close();
  });

  it('shows the simulated modem with its details, its AT log and a test send through it', async () => {
    const page = await signedInPage();
    await openScreen(page, 'modems', 'Modems');
    const modem = page.getByRole('region', { name: /^Modem / });
    await modem.getByText('Ready', { exact: true }).waitFor();
    await modem.getByText('This is a simulated modem').waitFor();
    await expect(modem.locator('.facts').textContent()).resolves.toMatch(/IMEI\s*\d{15}/);
    await modem.getByRole('button', { name: 'AT log' }).click();
    await expect.poll(() => modem.locator('.terminal').textContent()).toMatch(/» AT/);
    await page.screenshot({ path: join(screenshotDir, 'modems-at-log.png'), fullPage: true });
    await modem.getByRole('button', { name: 'Test send' }).click();
    await modem.getByLabel('Recipients').fill('+15551230004');
    await modem.getByLabel('Message', { exact: true }).fill('Modem test');
    await modem.getByRole('button', { name: 'Send', exact: true }).click();
    await modem.getByText(/^Queued for \+15551230004\./).waitFor();
    // The test send names this modem, so the queued message is bound to it.
    const [device] = await apiGet<{ id: string }[]>('/devices');
    const [message] = await apiGet<{ deviceId?: string }[]>(
      '/messages?includeContent=true&search=Modem%20test',
    );
    expect(message?.deviceId).toBe(device?.id);
    await page.close();
  });

  it('keeps a changed setting after a reload', async () => {
    const page = await signedInPage();
    await openScreen(page, 'settings', 'Settings');
    await page.getByLabel('Order of equal-priority messages').selectOption('FIFO');
    await page.getByLabel('Messages allowed per period').fill('25');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await expect(page.getByLabel('Order of equal-priority messages').inputValue()).resolves.toBe('FIFO');
    await expect(page.getByLabel('Messages allowed per period').inputValue()).resolves.toBe('25');
    await page
      .locator('.setting')
      .filter({ has: page.getByLabel('Messages allowed per period') })
      .getByRole('button', { name: 'Reset to default' })
      .click();
    await page.getByText('Messages allowed per period: back to the default.').waitFor();
    await expect(page.getByLabel('Messages allowed per period').inputValue()).resolves.toBe('');
    const stored = await apiGet<{ messages: Record<string, unknown> }>('/settings');
    expect(stored.messages.processing_order).toBe('FIFO');
    expect(stored.messages.limit_value).toBeUndefined();
    await page.close();
  });

  it('downloads a backup of the database from the Settings screen', async () => {
    const page = await signedInPage();
    await openScreen(page, 'settings', 'Settings');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download backup' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^sms-gateway-backup-\d{4}-\d{2}-\d{2}\.db$/);
    // Every SQLite database file starts with this header (https://sqlite.org/fileformat2.html).
    expect(
      readFileSync((await download.path()) ?? '')
        .subarray(0, 16)
        .toString('latin1'),
    ).toBe('SQLite format 3\0');
    await page.getByText(/^Backup downloaded as /).waitFor();
    await page.close();
  });

  it('refuses an out-of-range setting next to its field before sending it', async () => {
    const page = await signedInPage();
    await openScreen(page, 'settings', 'Settings');
    await page.getByLabel('Keep logs').fill('0');
    await page.getByText('At least 1.').waitFor();
    await expect(page.getByRole('button', { name: 'Save settings' }).isDisabled()).resolves.toBe(true);
    await page.close();
  });

  it('marks the setting the refusal names in its field, not another one its text mentions', async () => {
    const page = await signedInPage();
    await openScreen(page, 'settings', 'Settings');
    // Only the server refuses a period with no count: "messages.limit_value: is required when
    // messages.limit_period is PerDay" names both settings in its text, the count in `field`.
    await page.getByLabel('Sending limit period').selectOption('PerDay');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const errorOf = (label: string) =>
      page
        .locator('.setting')
        .filter({ has: page.getByLabel(label) })
        .locator('.field-error');
    await errorOf('Messages allowed per period').waitFor();
    await expect(errorOf('Messages allowed per period').textContent()).resolves.toContain('is required');
    await expect(errorOf('Sending limit period').count()).resolves.toBe(0);
    await page.close();
  });

  it('adds a webhook and lists it', async () => {
    const page = await signedInPage();
    await openScreen(page, 'webhooks', 'Webhooks');
    await page.getByLabel('Address (URL)').fill('http://example.com/hook');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Plain http:// is only allowed to this computer').waitFor();
    await page.getByLabel('Address (URL)').fill('https://hooks.example.com/sms');
    await page.getByLabel('Event').selectOption('sms:delivered');
    await page.getByLabel('ID (optional)').fill('crm-delivered');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const row = page.getByRole('row').filter({ hasText: 'https://hooks.example.com/sms' });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('sms:delivered');
    await page.close();
  });

  it('sends a test event to a webhook, lists the delivery and removes the webhook', async () => {
    const receiver = await startLoopbackServer((_request, response) => response.end('ok'));
    try {
      const page = await signedInPage();
      await openScreen(page, 'webhooks', 'Webhooks');
      const device = await simulatedDevice();
      await page.getByLabel('Address (URL)').fill(`${receiver.url}/events`);
      await page.getByLabel('ID (optional)').fill('ui-loopback');
      // By the start of its name: the event list's label holds "modem:low-balance" too.
      await page.getByRole('combobox', { name: /^Modem/ }).selectOption(device.id);
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const row = page.getByRole('row').filter({ hasText: 'ui-loopback' });
      await row.getByText(device.name).waitFor();
      await row.getByRole('button', { name: 'Deliveries' }).click();
      await page.getByText('Nothing delivered yet.').waitFor();
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page
        .getByRole('table', { name: 'Deliveries' })
        .getByText(/HTTP 200/)
        .waitFor();
      expect(receiver.requests.map((request) => request.url)).toEqual(['/events']);
      expect(receiver.requests[0]?.body).toContain('"sms:received"');
      await page.getByRole('button', { name: 'Remove webhook' }).click();
      await row.waitFor({ state: 'detached' });
      const ids = (await apiGet<{ id: string }[]>('/webhooks')).map((webhook) => webhook.id);
      expect(ids).not.toContain('ui-loopback');
      expect(ids).toContain('crm-delivered');
      await page.close();
    } finally {
      await receiver.close();
    }
  });

  it('filters the log by level and module', async () => {
    const page = await signedInPage();
    await openScreen(page, 'logs', 'Logs');
    await page.locator('.log-line').first().waitFor();
    const moduleOptions = await page.getByLabel('Module').locator('option').allTextContents();
    const chosen = moduleOptions.find((name) => name.startsWith('modem:')) ?? moduleOptions[1];
    expect(chosen).toBeDefined();
    await page.getByLabel('Module').selectOption(chosen ?? '');
    const modules = await page.locator('.log-line .log-module').allTextContents();
    expect(modules.length).toBeGreaterThan(0);
    expect(new Set(modules)).toEqual(new Set([chosen]));
    await page.getByLabel('Contains').fill('no entry says this');
    await page.getByText('No log entries match.').waitFor();
    await page.getByLabel('Contains').fill('');
    await page.locator('.log-line').first().waitFor();
    await page.getByLabel('Level').selectOption('ERROR');
    const levels = await page.locator('.log-line .log-level').allTextContents();
    expect(levels.every((level) => level === 'ERROR')).toBe(true);
    await page.close();
  });

  it('creates an API token, shows it once with a curl line that uses it, and revokes it', async () => {
    const page = await signedInPage();
    await openScreen(page, 'api', 'API access');
    // The longest lifetime on offer is one the gateway grants.
    const lifetime =
      (await page.getByLabel('Valid for').locator('option').last().getAttribute('value')) ?? '';
    await page.getByLabel('Valid for').selectOption(lifetime);
    // A wrong password is refused on the spot and does not end the window's session.
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /password/i })
      .waitFor();
    await page.getByLabel('Password', { exact: true }).fill('password123');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.locator('.token-once');
    await shown.getByText('Copy this token now').waitFor();
    const token = (await shown.locator('pre').textContent()) ?? '';
    expect(token.split('.')).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      iat: number;
      exp: number;
    };
    expect(claims.exp - claims.iat).toBe(Number(lifetime));
    await expect(page.locator('pre').first().textContent()).resolves.toContain(
      `Authorization: Bearer ${token}`,
    );
    const sent = await fetch(`${baseUrl}/messages`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ textMessage: { text: 'via token' }, phoneNumbers: ['+15551230003'] }),
    });
    expect(sent.status).toBe(202);
    // Only the ticked scopes: sending and reading one message, not listing them.
    const listed = await fetch(`${baseUrl}/messages`, { headers: { Authorization: `Bearer ${token}` } });
    expect(listed.status).toBe(403);
    const jti = (await shown.locator('code').first().textContent()) ?? '';
    // Listed with what it may do; the window's own sign-in is marked (issue 36).
    const issued = page.getByRole('table', { name: 'Issued tokens' });
    const row = issued.getByRole('row').filter({ hasText: jti });
    await row.getByText('messages:send, messages:read').waitFor();
    await row.getByText('The password').waitFor();
    await issued.getByRole('row').filter({ hasText: 'this window' }).waitFor();
    await row.getByRole('button', { name: `Revoke ${jti}` }).click();
    await page.getByText(`Token ${jti} is revoked, with every token refreshed from it.`).waitFor();
    await row.waitFor({ state: 'detached' });
    const refused = await fetch(`${baseUrl}/messages`, { headers: { Authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(401);
    await page.close();
  });

  it('revokes every token from the window, its own sign-in included (issue 36)', async () => {
    const issued = await apiCall<{ access_token: string }>('POST', '/auth/token', {
      scopes: ['messages:list'],
    });
    const page = await signedInPage();
    await openScreen(page, 'api', 'API access');
    await page.getByRole('button', { name: 'Revoke all' }).click();
    await page.getByRole('button', { name: 'Yes, revoke all' }).click();
    // The browser session ended with the rest: the window asks to sign in again.
    await page.getByLabel('Username').waitFor();
    const refused = await fetch(`${baseUrl}/messages`, {
      headers: { Authorization: `Bearer ${issued.access_token}` },
    });
    expect(refused.status).toBe(401);
    await page.close();
  });

  it('runs in the Electron window on the bridge token, renewing it after a 401, with desktop preferences', async () => {
    const token = await ownerSessionToken(gateway);
    const page = await newPage();
    // Electron's binary is absent here: this stands in for the preload's window.desktop facade.
    // Its first token is stale, as after a long sleep; the UI must fetch the renewed one.
    await page.addInitScript(`
      let calls = 0;
      window.__preferences = {
        notifyOnIncoming: true, showSmsPreviews: false, notifyOnProblems: true, keepAwakeWhileQueued: true,
        startAtLogin: false, closeToTray: true, listenPort: null, useSimulator: false,
      };
      window.__firstRunLogin = { username: 'sms', password: 'generated-once-123' };
      window.desktop = {
        getConnection: async () => ({ baseUrl: ${JSON.stringify(baseUrl)}, token: calls++ === 0 ? 'stale' : ${JSON.stringify(token)} }),
        getPreferences: async () => window.__preferences,
        setPreference: async (key, value) => (window.__preferences = { ...window.__preferences, [key]: value }),
        openApiDocs: async () => undefined,
        getFirstRunLogin: async () => window.__firstRunLogin,
        confirmFirstRunLoginSaved: async () => {
          window.__firstRunLogin = undefined;
        },
      };
    `);
    await page.goto(`${baseUrl}/ui/#/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    // The first-run login, shown until the user says it is saved.
    const firstRun = page.getByRole('region', { name: 'Your login for the API' });
    await firstRun.getByText('generated-once-123').waitFor();
    await firstRun.getByRole('button', { name: 'I saved it' }).click();
    await firstRun.waitFor({ state: 'detached' });
    await expect(page.evaluate<unknown>('window.__firstRunLogin')).resolves.toBeUndefined();

    await page.getByRole('heading', { name: 'This computer' }).waitFor();
    await page.getByLabel('Order of equal-priority messages').waitFor();
    await page.getByLabel('Start when I log in').check();
    await expect(page.evaluate<boolean>('window.__preferences.startAtLogin')).resolves.toBe(true);
    await page.getByLabel('Port of the API and this window').fill('8081');
    await page.getByRole('button', { name: 'Save and restart the gateway' }).click();
    await expect.poll(() => page.evaluate<number | null>('window.__preferences.listenPort')).toBe(8081);
    await expect(page.getByRole('button', { name: /Sign out/ }).count()).resolves.toBe(0);
    await page.close();
  });

  it('renders every screen at 1024×700 without sideways scrolling or Content Security Policy violations', async () => {
    const page = await newPage();
    const served = await fetch(`${baseUrl}/ui/`);
    expect(served.headers.get('content-security-policy')).toBe(contentSecurityPolicy);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text());
    });
    await page.goto(`${baseUrl}/ui/`);
    await page.getByLabel('Username').fill(uiUser);
    await page.getByLabel('Password').fill(uiPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    for (const screen of screens) {
      await page.goto(`${baseUrl}/ui/#/${screen}`);
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
