import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DeviceRecord } from '../../renderer/src/api/types.js';
import { modemLabel } from '../../renderer/src/modems/modemLabel.js';
import { screens } from '../../renderer/src/screenList.js';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { startLoopbackServer } from './loopbackServer.js';
import { apiCall, newTab, openScreen, signIn, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * Issue 14 ("the window tells the truth"), items 4–12 and 14: the UI in headless Chromium
 * against the real gateway with two built-in simulated modems, as the issue found it.
 */
type Device = DeviceRecord & { modem: { port: string } };
interface Message {
  id: string;
  state: string;
}

let ui: UiGateway;
let browser: Browser;
let devices: Device[];

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway({ simulatedModems: 2 });
  browser = await launchBrowser();
  devices = await api<Device[]>('GET', '/devices');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  return apiCall<T>(ui.baseUrl, method, path, body);
}

/** Tabs a test opened: closed after it, even when it failed half-way. */
const openTabs: Page[] = [];

afterEach(async () => {
  await Promise.all(openTabs.splice(0).map((page) => page.close()));
});

async function signedIn(options: { viewport?: { width: number; height: number } } = {}): Promise<Page> {
  const page = await newTab(browser, options);
  openTabs.push(page);
  await signIn(page, ui.baseUrl);
  return page;
}

async function messageReaching(id: string, state: string): Promise<void> {
  await expect
    .poll(async () => (await api<Message>('GET', `/messages/${id}`)).state, { timeout: 15_000 })
    .toBe(state);
}

async function whilePaused<T>(work: () => Promise<T>): Promise<T> {
  ui.gateway.setSendingPaused(true);
  try {
    return await work();
  } finally {
    ui.gateway.setSendingPaused(false);
  }
}

const statusBar = (page: Page) => page.getByRole('region', { name: 'Gateway status' });

describe('issue 14 in Chromium with two simulated modems', () => {
  it('names a modem by its id and shows name, SIM and port everywhere (item 4)', async () => {
    expect(devices).toHaveLength(2);
    const [first, second] = devices as [Device, Device];
    const page = await signedIn();
    await openScreen(page, 'Modems');
    const firstPanel = page.getByRole('region', { name: new RegExp(`^Modem .*${first.modem.port}$`) });
    await firstPanel.getByRole('button', { name: 'Rename' }).click();
    await firstPanel.getByLabel('Name', { exact: true }).fill('Front desk');
    await firstPanel.getByRole('button', { name: 'Save name' }).click();
    const firstLabel = modemLabel({ ...first, name: 'Front desk' });
    expect(firstLabel).toMatch(new RegExp(`^Front desk · SIM 1 .*· ${first.modem.port}$`));
    await page.getByRole('heading', { level: 2, name: firstLabel }).waitFor();
    // Stored under the modem's IMEI-derived id, so it survives a restart of the gateway.
    await ui.gateway.stop();
    await ui.restart();
    const renamed = await api<Device[]>('GET', '/devices');
    expect(renamed.find((device) => device.id === first.id)?.name).toBe('Front desk');
    const secondLabel = modemLabel(second);

    await page.goto(`${ui.baseUrl}/ui/#/messages`);
    await page.getByRole('button', { name: 'New message' }).click();
    const compose = page.getByRole('form', { name: 'Compose message' });
    await expect
      .poll(() => compose.getByLabel('Modem').locator('option').allTextContents())
      .toEqual(['Any available', firstLabel, secondLabel]);
    const filterOptions = page.getByRole('region', { name: 'Filters' }).getByLabel('Modem').locator('option');
    await expect.poll(() => filterOptions.allTextContents()).toEqual(['All modems', firstLabel, secondLabel]);
    await openScreen(page, 'Dashboard');
    await page.locator('.modem-card').getByText(firstLabel).waitFor();
    await page.close();
  }, 60_000);

  it('offers only the chosen modem’s SIM slots in Compose (item 5)', async () => {
    const page = await signedIn();
    await openScreen(page, 'Messages');
    await page.getByRole('button', { name: 'New message' }).click();
    const compose = page.getByRole('form', { name: 'Compose message' });
    const simOptions = compose.getByLabel(/^SIM/).locator('option');
    await expect.poll(() => simOptions.allTextContents()).toEqual(['By settings']);
    await compose.getByLabel('Modem').selectOption(devices[1]?.id ?? '');
    await expect.poll(() => simOptions.allTextContents()).toEqual(['By settings', 'SIM 1']);
    await page.close();
  });

  it('shows when a scheduled message will go (item 6)', async () => {
    const at = new Date(Date.now() + 3 * 3600_000);
    const scheduled = await api<Message>('POST', '/messages', {
      textMessage: { text: 'See you tomorrow' },
      phoneNumbers: ['+15551230030'],
      scheduleAt: at.toISOString(),
    });
    const page = await signedIn();
    await openScreen(page, 'Messages');
    const row = page.locator(`tr[data-message-id="${scheduled.id}"]`);
    const shownTime = await page.evaluate((ms) => {
      const date = new Date(ms);
      const two = (value: number) => String(value).padStart(2, '0');
      return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
    }, at.getTime());
    await row.getByText(`Scheduled ${shownTime}`).waitFor();
    await row.getByRole('button', { name: 'See you tomorrow' }).click();
    const detail = page.locator('.detail');
    await detail.getByText(shownTime).waitFor();
    await detail.getByText('Chosen when it goes').waitFor();
    await page.close();
  });

  it('says on every screen that the modem is simulated, sending is paused and which webhook fails (item 7)', async () => {
    const receiver = await startLoopbackServer((_request, response) => {
      response.statusCode = 500;
      response.end('down');
    });
    try {
      await api('PATCH', '/settings', { webhooks: { retry_count: 0 } });
      const hookUrl = `${receiver.url}/crm-hook`;
      const hook = await api<{ id: string }>('POST', '/webhooks', { url: hookUrl, event: 'sms:received' });
      await api('POST', `/gateway/v1/webhooks/${hook.id}/test`);
      const page = await signedIn();
      await whilePaused(async () => {
        // One line, the gravest, while three wait behind "2 more"; opened, they stay open from
        // screen to screen.
        const bar = statusBar(page);
        const more = bar.getByRole('button', { name: '2 more', expanded: false });
        await more.waitFor();
        // The failing webhook is named by its URL once the webhooks are read.
        await expect
          .poll(() => bar.getByRole('listitem').allTextContents())
          .toEqual([expect.stringContaining(`(last: ${hookUrl} — receiver answered HTTP 500)`)]);
        await more.click();
        for (const screen of screens) {
          await openScreen(page, screen.label);
          await bar.getByText(/^Simulated modem in use/).waitFor();
          await bar.getByText(/^Sending is paused/).waitFor();
          await bar.getByText(`(last: ${hookUrl} — receiver answered HTTP 500)`).waitFor();
          await bar.getByRole('button', { name: 'Show less', expanded: true }).waitFor();
        }
      });
      await statusBar(page)
        .getByText(/^Sending is paused/)
        .waitFor({ state: 'detached' });
      await api('DELETE', `/webhooks/${hook.id}`);
      await page.close();
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('explains failures in plain words, offers Send again and Cancel in the list, and says whom it sent to (item 11)', async () => {
    const page = await signedIn();
    await openScreen(page, 'Messages');
    // The first page must be on screen before the message exists: a page read after it would
    // list the message at once, with no "new — show" bar (the earlier items left rows here).
    await page.locator('tr[data-message-id]').first().waitFor();
    const expired = await whilePaused(async () => {
      const message = await api<Message>('POST', '/messages', {
        textMessage: { text: 'Too late' },
        phoneNumbers: ['+15551230040'],
        ttl: 1,
      });
      await messageReaching(message.id, 'Failed');
      return message;
    });
    const expiredRow = page.locator(`tr[data-message-id="${expired.id}"]`);
    await page.getByRole('button', { name: /new messages? — show/ }).click();
    await expiredRow.getByRole('button', { name: 'Too late' }).click();
    await page
      .locator('.detail')
      .getByText('Expired before it was sent (TTL 1 s): no modem took it in time, or sending was paused.')
      .waitFor();
    await expiredRow.getByRole('button', { name: 'Send again to +15551230040' }).click();
    await page.getByText('Sent again to +15551230040.').waitFor();
    const copies = page.locator('tr[data-message-id]').filter({ hasText: 'Too late' });
    await expect.poll(() => copies.count()).toBe(2);

    await whilePaused(async () => {
      const waiting = await api<Message>('POST', '/messages', {
        textMessage: { text: 'Not yet' },
        phoneNumbers: ['+15551230041'],
      });
      await page.getByRole('button', { name: /new messages? — show/ }).click();
      const waitingRow = page.locator(`tr[data-message-id="${waiting.id}"]`);
      await waitingRow.getByRole('button', { name: 'Cancel message to +15551230041' }).click();
      await waitingRow.getByRole('button', { name: 'Yes, cancel' }).click();
      await waitingRow.getByText('Cancelled', { exact: true }).waitFor();
    });

    await page.getByRole('button', { name: 'New message' }).click();
    const compose = page.getByRole('form', { name: 'Compose message' });
    await compose.getByLabel('Recipients').fill('+15551230042');
    await compose.getByLabel('Message', { exact: true }).fill('Thanks for your order');
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    await compose.getByText('Queued for +15551230042.').waitFor();
    await expect(compose.getByLabel('Recipients').inputValue()).resolves.toBe('');
    await compose.getByRole('button', { name: 'View message' }).click();
    await page.locator('.detail').getByText('Thanks for your order').waitFor();
    await page.close();
  }, 60_000);

  it('delivers a simulated incoming SMS from the Modems screen into the Inbox (item 12)', async () => {
    const page = await signedIn();
    await openScreen(page, 'Modems');
    const panel = page.getByRole('region', { name: /^Modem / }).first();
    await panel.getByRole('button', { name: 'Simulate incoming SMS' }).click();
    const form = panel.getByRole('form', { name: 'Simulate incoming SMS' });
    await form.getByLabel('From').fill('+15550007777');
    await form.getByLabel('Text').fill('Is my parcel on its way?');
    await form.getByRole('button', { name: 'Receive it' }).click();
    await form.getByText('Received from +15550007777: see the Inbox.').waitFor();
    // A number as people write it is taken; what is no number says why.
    await form.getByLabel('From').fill('call me');
    await form
      .getByText('A phone number: 3 to 15 digits, with + and spaces, dashes or brackets if you like.')
      .waitFor();
    await expect(form.getByRole('button', { name: 'Receive it' }).isDisabled()).resolves.toBe(true);
    await form.getByLabel('From').fill('(555) 000-1111');
    await form.getByRole('button', { name: 'Receive it' }).click();
    await form.getByText('Received from 5550001111: see the Inbox.').waitFor();
    await openScreen(page, 'Inbox');
    // Both arrived: the one written as +15550007777 and the one written as (555) 000-1111.
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'Is my parcel on its way?' }).count(), {
        timeout: 15_000,
      })
      .toBe(2);
    await page.close();
  });

  it('resets only what differs from the default, titles each screen, serves a favicon and keeps the sidebar full height (item 10)', async () => {
    const page = await signedIn();
    await openScreen(page, 'Settings');
    const setting = (label: string) => page.locator('.setting').filter({ has: page.getByLabel(label) });
    const order = setting('Order of equal-priority messages');
    const limit = setting('Messages allowed per period');
    // Stored as the default (GET /settings fills it in): nothing to reset.
    await expect(order.getByRole('button', { name: 'Reset to default' }).isDisabled()).resolves.toBe(true);
    await expect(limit.getByRole('button', { name: 'Reset to default' }).isDisabled()).resolves.toBe(true);
    await page.getByLabel('Messages allowed per period').fill('40');
    await limit.getByRole('button', { name: 'Reset to default' }).click();
    await expect(page.getByLabel('Messages allowed per period').inputValue()).resolves.toBe('');

    for (const screen of screens) {
      await openScreen(page, screen.label);
      await expect(page.title()).resolves.toBe(`${screen.label} — Desktop SMS Gateway`);
    }
    const favicon = await fetch(`${ui.baseUrl}/favicon.ico`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toBe('image/svg+xml');

    // A tall page scrolled to its end: the sidebar still reaches the bottom of the window.
    await openScreen(page, 'Settings');
    const viewportHeight = page.viewportSize()?.height ?? 0;
    // The settings arrive after the screen opens: the page is tall once they are shown.
    await vi.waitFor(async () =>
      expect(await page.evaluate<number>('document.body.scrollHeight')).toBeGreaterThan(viewportHeight),
    );
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    const sidebar = await page.getByRole('navigation', { name: 'Screens' }).boundingBox();
    expect((sidebar?.y ?? 0) + (sidebar?.height ?? 0)).toBeGreaterThanOrEqual(viewportHeight - 1);
    await page.close();
  }, 60_000);

  it('exports phone numbers as text and modems by name (item 10)', async () => {
    const sent = await api<Message>('POST', '/messages', {
      textMessage: { text: 'Export me' },
      phoneNumbers: ['+15551230050'],
      deviceId: devices[0]?.id,
      withDeliveryReport: false,
    });
    await messageReaching(sent.id, 'Sent');
    const page = await signedIn();
    await openScreen(page, 'Messages');
    await page.getByLabel('Search').fill('Export me');
    await page.locator(`tr[data-message-id="${sent.id}"]`).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const [header, row] = readFileSync((await download.path()) ?? '', 'utf8').split('\r\n');
    expect(header).toContain(',modem,');
    expect(row).toContain('"=""+15551230050"""');
    const modem = (await api<Device[]>('GET', '/devices')).find((device) => device.id === devices[0]?.id);
    expect(row).toContain(modemLabel(modem as Device));
    await page.close();
  });

  it('offers the server settings only where fleet mode uses them (item 9)', async () => {
    const page = await signedIn();
    await openScreen(page, 'Settings');
    await page.getByRole('group', { name: 'Sending' }).waitFor();
    await expect(page.getByText('Cloud or private server').count()).resolves.toBe(0);
    await page.getByRole('group', { name: 'Fleet mode (private server)' }).waitFor();
    await page.close();
  });

  it('follows a dark system theme and fits every screen in a 640 px wide window (item 14)', async () => {
    const page = await signedIn({ viewport: { width: 640, height: 800 } });
    const background = () =>
      page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await background();
    const brightness = (rgb: string) =>
      (rgb.match(/\d+/g) ?? []).slice(0, 3).reduce((sum, value) => sum + Number(value), 0);
    expect(brightness(light)).toBeGreaterThan(600);
    expect(brightness(dark)).toBeLessThan(150);
    for (const screen of screens) {
      await openScreen(page, screen.label);
      await page.locator('.loading').first().waitFor({ state: 'detached' });
      const overflow = await page.evaluate<number>(
        'document.documentElement.scrollWidth - window.innerWidth',
      );
      expect({ screen: screen.id, overflow }).toEqual({ screen: screen.id, overflow: 0 });
    }
    await page.close();
  }, 60_000);

  it('takes dates in the filters as the tables write them (item 10)', async () => {
    const sent = await api<Message>('POST', '/messages', {
      textMessage: { text: 'Dated for the filter' },
      phoneNumbers: ['+15551230070'],
    });
    const page = await signedIn();
    await openScreen(page, 'Messages');
    const row = page.locator(`tr[data-message-id="${sent.id}"]`);
    const written = ((await row.locator('td.nowrap').first().textContent()) ?? '').trim();
    expect(written).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // The minute the table shows, typed as shown: the message is in the range from it on…
    const from = page.getByLabel('From', { exact: true });
    await from.fill(written.slice(0, 16));
    await row.waitFor();
    await expect(from.inputValue()).resolves.toBe(written.slice(0, 16));
    // …and not in the range from the next day on; an unfinished date leaves the filter alone.
    const nextDay = new Date(Date.parse(written.slice(0, 10)) + 86_400_000).toISOString().slice(0, 10);
    await from.fill(nextDay);
    await row.waitFor({ state: 'detached' });
    await from.fill(`${nextDay.slice(0, 7)}-`);
    await expect(from.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(row.count()).resolves.toBe(0);
    await from.fill('');
    await row.waitFor();
    await page.close();
  });

  it('writes counts with thousands separators (item 10)', async () => {
    ui.gateway.setSendingPaused(true);
    const send = () =>
      api('POST', '/messages', { textMessage: { text: 'Queued' }, phoneNumbers: ['+15551230060'] });
    for (let batch = 0; batch < 50; batch++) await Promise.all(Array.from({ length: 21 }, send));
    const page = await signedIn();
    await page
      .locator('.tile')
      .filter({ hasText: 'In queue' })
      .getByText(/^1,0\d\d$/)
      .waitFor();
    await openScreen(page, 'Messages');
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByText(/^1–50 of 1,\d{3}$/)
      .waitFor();
    await page.close();
  }, 120_000);
});
