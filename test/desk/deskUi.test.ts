/**
 * The desk's acceptance (issue 13): the React UI in headless Chromium against the real gateway,
 * whose modem is the simulated one on a pty opened through the real serialport binding. What
 * the modem accepted (the PDUs) is the proof that a click reached the phone network.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiMessage, waitForReadyModems } from '../integration/support/apiReads.js';
import { launchBrowser, openTab, signIn } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import {
  type GatewayHarness,
  harnessPassword,
  harnessUser,
  startGatewayHarness,
} from '../support/gatewayHarness.js';

let harness: GatewayHarness;
let browser: Browser;
/** One signed-in tab for the whole suite: each test opens its screen by its hash route. */
let page: Page;

beforeAll(async () => {
  await buildUi();
  harness = await startGatewayHarness({ ptyModems: 1, options: { uiDirectory: 'dist/ui' } });
  await waitForReadyModems(harness.api, 1);
  browser = await launchBrowser();
  page = await signedInPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const pdusTo = (number: string) =>
  harness.acceptedBy(0).filter((pdu) => pdu.decoded.recipient.number === number);

async function signedInPage(): Promise<Page> {
  const page = await openTab(browser, { viewport: { width: 1024, height: 700 } });
  await signIn(page, harness.url, harnessUser, harnessPassword);
  return page;
}

async function openScreen(page: Page, screen: string, heading: string): Promise<void> {
  await page.goto(`${harness.url}/ui/#/${screen}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** An SMS from `sender` through the simulated network to the pty modem, once the gateway stored it. */
async function receive(sender: string, text: string): Promise<void> {
  harness.ptyModem(0).injectIncoming({ sender, text });
  await vi.waitFor(
    async () => {
      const inbox = await harness.api.get<{ sender: string; contentPreview: string }[]>('/inbox');
      if (!inbox.body.some((entry) => entry.sender === sender && entry.contentPreview === text)) {
        throw new Error(`"${text}" from ${sender} is not in the inbox yet`);
      }
    },
    { timeout: 15_000, interval: 100 },
  );
}

describe('the desk in Chromium over a pty modem', () => {
  it('answers a customer from the conversation thread, as a PDU to their number', async () => {
    const customer = '+447700900701';
    await receive(customer, 'Is the shop open on Sunday?');
    await openScreen(page, 'conversations', 'Conversations');
    const row = page.getByRole('button').filter({ hasText: customer });
    await row.locator('.badge', { hasText: /^1 unread$/ }).waitFor();
    await row.click();
    const thread = page.getByRole('region', { name: `Conversation with ${customer}` });
    await thread.getByText('Is the shop open on Sunday?').waitFor();
    await thread.getByLabel('Your reply').fill('Yes, from 10 to 4.');
    await thread.getByRole('button', { name: 'Send reply' }).click();
    await vi.waitFor(() => expect(pdusTo(customer)).toHaveLength(1), { timeout: 15_000 });
    expect(pdusTo(customer)[0]?.decoded.text).toBe('Yes, from 10 to 4.');
    // The thread shows both directions, the reply with its state.
    const outgoing = thread.locator('.bubble-out').filter({ hasText: 'Yes, from 10 to 4.' });
    await outgoing.getByText(/^(Sent|Delivered)$/).waitFor();
    // Opening it read it: no unread count left.
    await expect(row.locator('.badge').count()).resolves.toBe(0);
  });

  it('lists a sender who texted STOP, and a send from Compose fails for them only, with no PDU', async () => {
    const quitter = '+447700900702';
    const other = '+447700900703';
    await receive(quitter, 'STOP');
    await openScreen(page, 'optouts', 'Opt-outs');
    await page.getByRole('row').filter({ hasText: quitter }).getByText('Texted a keyword').waitFor();

    await openScreen(page, 'messages', 'Messages');
    await page.getByRole('button', { name: 'New message' }).click();
    await page.getByLabel('Recipients').fill(`${quitter}, ${other}`);
    await page.getByLabel('Message', { exact: true }).fill('Summer sale starts today');
    await page.getByLabel('Delivery report').uncheck();
    await page.getByRole('button', { name: 'Send to 2 recipients' }).click();
    const row = page.locator('tr[data-message-id]').filter({ hasText: 'Summer sale starts today' });
    await row.getByText('Sent', { exact: true }).waitFor();
    const stored = await harness.api.get<ApiMessage>(
      `/messages/${await row.getAttribute('data-message-id')}`,
    );
    expect(stored.body.recipients).toEqual([
      { phoneNumber: quitter, state: 'Failed', error: 'opted out', failure: { code: 'opted-out' } },
      { phoneNumber: other, state: 'Sent' },
    ]);
    expect(pdusTo(quitter)).toHaveLength(0);
    expect(pdusTo(other)).toHaveLength(1);
    await row.getByRole('button', { name: 'Summer sale starts today' }).click();
    await page.locator('.detail').getByText('Not sent: the number is on the opt-out list.').waitFor();
  });

  it('builds a keyword rule, tests it with a sample, and a matching SMS gets the auto-reply PDU', async () => {
    await openScreen(page, 'rules', 'Auto-reply rules');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const editor = page.getByRole('form', { name: 'Rule' });
    await editor.getByLabel('Name').fill('Price list');
    await editor.getByLabel('Pattern').fill('PRICE');
    await editor.getByLabel('Reply text').fill('Tea 2, cake 3.');
    await editor.getByRole('button', { name: 'Save rule' }).click();
    await page.getByRole('list', { name: 'Rules in order' }).getByText('Price list').waitFor();

    const tester = page.getByRole('form', { name: 'Rule tester' });
    await tester.getByLabel('Sample text').fill('price please');
    await tester.getByRole('button', { name: 'Test' }).click();
    await page.getByRole('list', { name: 'Verdicts' }).getByText('Acts').waitFor();
    await tester.getByLabel('Sample text').fill('priceless');
    await tester.getByRole('button', { name: 'Test' }).click();
    await page.getByRole('list', { name: 'Verdicts' }).getByText('the text does not match').waitFor();

    const customer = '+447700900704';
    await receive(customer, 'Price list please');
    await vi.waitFor(() => expect(pdusTo(customer)).toHaveLength(1), { timeout: 15_000 });
    expect(pdusTo(customer)[0]?.decoded.text).toBe('Tea 2, cake 3.');
  });

  it('schedules a message from Compose, then edits its time and text before it starts', async () => {
    await openScreen(page, 'messages', 'Messages');
    await page.getByRole('button', { name: 'New message' }).click();
    await page.getByLabel('Recipients').fill('+447700900705');
    await page.getByLabel('Message', { exact: true }).fill('See you tomorrow');
    await page.getByLabel('Send later').fill('2099-01-02T09:30');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const row = page.locator('tr[data-message-id]').filter({ hasText: 'See you tomorrow' });
    await row.getByText(/^Scheduled 2099-01-02/).waitFor();
    const id = (await row.getAttribute('data-message-id')) ?? '';
    const scheduled = await harness.api.get<{ scheduleAt: string }>(`/messages/${id}`);
    expect(new Date(scheduled.body.scheduleAt).getFullYear()).toBe(2099);

    await row.getByRole('button', { name: 'See you tomorrow' }).click();
    const edit = page.getByRole('form', { name: 'Edit scheduled message' });
    await edit.getByLabel('Text').fill('See you on Friday');
    await edit.getByLabel('Send at').fill('2099-03-04T10:00');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByText(/^Scheduled for/).waitFor();
    const edited = await harness.api.get<{ scheduleAt: string; textMessage: { text: string } }>(
      `/messages/${id}`,
    );
    expect(edited.body.textMessage.text).toBe('See you on Friday');
    expect(new Date(edited.body.scheduleAt).getMonth()).toBe(2);
    // The row now shows the new text: find it by id.
    const editedRow = page.locator(`tr[data-message-id="${id}"]`);
    await editedRow.getByRole('button', { name: 'See you on Friday' }).waitFor();
    await editedRow.getByRole('button', { name: /^Cancel message to/ }).click();
    await editedRow.getByText('Cancel this scheduled message?').waitFor();
    await editedRow.getByRole('button', { name: 'Yes, cancel' }).click();
    await editedRow.getByText('Cancelled', { exact: true }).waitFor();
    expect(pdusTo('+447700900705')).toHaveLength(0);
  });

  it('shows Conversations, Auto-reply and Opt-outs at 1024×700 without sideways scrolling', async () => {
    for (const [screen, heading] of [
      ['conversations', 'Conversations'],
      ['rules', 'Auto-reply rules'],
      ['optouts', 'Opt-outs'],
    ] as const) {
      await openScreen(page, screen, heading);
      await page.locator('.loading').first().waitFor({ state: 'detached' });
      // A string expression: this file is compiled without the DOM library.
      const overflow = await page.evaluate<number>(
        'document.documentElement.scrollWidth - window.innerWidth',
      );
      expect({ screen, overflow }).toEqual({ screen, overflow: 0 });
    }
  });
});
