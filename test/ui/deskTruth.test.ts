import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedModem } from '../../server/devices/simulator/simulatedModem.js';
import { waitForReadyModems } from '../integration/support/apiReads.js';
import { launchBrowser, openTab, signIn } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import {
  type GatewayHarness,
  harnessPassword,
  harnessUser,
  startGatewayHarness,
} from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';

/**
 * What a first day at the desk found wrong (issue 40), each driven in real headless Chromium
 * against the real gateway with the built-in simulated modem.
 */
const viewport = { width: 1024, height: 700 };

let harness: GatewayHarness;
let browser: Browser;

beforeAll(async () => {
  await buildUi();
  harness = await startGatewayHarness({ simulatedModems: 1, options: { uiDirectory: 'dist/ui' } });
  await harness.api.patch('/settings', { desk: { default_country: 'DE' } });
  await harness.api.post('/gateway/v1/contacts', { name: 'Eva Baker', phoneNumber: '0160 1111111' });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

async function signedInPage(size = viewport): Promise<Page> {
  const page = await openTab(browser, { viewport: size });
  await signIn(page, harness.url, harnessUser, harnessPassword);
  return page;
}

function modem(): SimulatedModem {
  const simulated = harness.gateway.simulatedModems[0];
  if (!simulated) throw new Error('the gateway has no simulated modem');
  return simulated;
}

/** The texts the simulated modem handed to the network for `number`. */
function textsTo(number: string): string[] {
  return modem()
    .accepted.filter((pdu) => pdu.decoded.recipient.number === number)
    .map((pdu) => pdu.decoded.text ?? '');
}

/** The `count`th text to `number`, once the modem has handed it to the network. */
async function nthTextTo(number: string, count: number, what: string): Promise<string | undefined> {
  await pollUntil(() => textsTo(number).length >= count, { what, limitMs: 30_000 });
  return textsTo(number)[count - 1];
}

describe('customers receive the text that was meant (items 1–2)', () => {
  it('fills a template’s {name} in Compose from the contact, and refuses a number that cannot fill it', async () => {
    await harness.api.post('/gateway/v1/templates', {
      name: 'Order ready',
      text: 'Hi {name}, your order is ready.',
    });
    const page = await signedInPage();
    await page.goto(`${harness.url}/ui/#/messages`);
    await page.getByRole('button', { name: 'New message' }).click();
    const compose = page.getByRole('form', { name: 'Compose message' });
    await compose.getByLabel('Template').selectOption({ label: 'Order ready' });
    await compose.getByLabel('Recipients').fill('0170 9999999');
    await expect(
      compose.getByRole('alert', { name: 'Placeholders without a value' }).textContent(),
    ).resolves.toBe('No value for {name} for +491709999999');
    await expect(compose.getByRole('button', { name: 'Send', exact: true }).isDisabled()).resolves.toBe(true);

    await compose.getByLabel('Recipients').fill('0160 1111111');
    await compose.getByRole('alert', { name: 'Placeholders without a value' }).waitFor({ state: 'detached' });
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(nthTextTo('+491601111111', 1, 'the order text to reach the network')).resolves.toBe(
      'Hi Eva Baker, your order is ready.',
    );
    await page.close();
  });

  it('fills {name} in an auto-reply’s typed text, and "Try the rules" shows the exact text', async () => {
    await harness.api.post('/gateway/v1/rules', {
      name: 'Thanks',
      match: { kind: 'startsWith', pattern: 'hello' },
      action: { kind: 'reply', text: 'Thanks {name}, we call you back.' },
    });
    const page = await signedInPage();
    await page.goto(`${harness.url}/ui/#/rules`);
    const tester = page.getByRole('form', { name: 'Rule tester' });
    await tester.getByLabel('Sample text').fill('hello there');
    await tester.getByLabel('From').fill('+491601111111');
    await tester.getByRole('button', { name: 'Test' }).click();
    const verdict = page
      .getByRole('list', { name: 'Verdicts' })
      .getByRole('listitem')
      .filter({ hasText: 'Thanks' });
    await expect(verdict.textContent()).resolves.toBe(
      'Acts Thanks: the text matches — sends to +491601111111: “Thanks Eva Baker, we call you back.”',
    );
    await tester.getByLabel('From').fill('+491709999999');
    await tester.getByRole('button', { name: 'Test' }).click();
    await verdict.filter({ hasText: 'sends nothing' }).waitFor();
    await expect(verdict.textContent()).resolves.toContain('no value for {name} from +491709999999');

    modem().injectIncoming({ sender: '+491601111111', text: 'hello, is my order ready?' });
    await expect(nthTextTo('+491601111111', 2, 'the auto-reply to reach the network')).resolves.toBe(
      'Thanks Eva Baker, we call you back.',
    );
    // The editor warns of the same, and a fallback answers everyone.
    await page.getByRole('button', { name: 'Add rule' }).click();
    const editor = page.getByRole('form', { name: 'Rule', exact: true });
    await editor.getByLabel('Reply text').fill('Thanks {name}, we call you back.');
    await expect(editor.getByRole('note').textContent()).resolves.toContain(
      'no value for a sender who is not in your contacts',
    );
    await editor.getByLabel('Reply text').fill('Thanks {name|friend}, we call you back.');
    await editor.getByRole('note').waitFor({ state: 'detached' });
    const greeting = await harness.api.post<{ id: string }>('/gateway/v1/rules', {
      name: 'Greeting',
      match: { kind: 'startsWith', pattern: 'hi ' },
      action: { kind: 'reply', text: 'Hi {name|friend}!' },
    });
    await tester.getByLabel('Sample text').fill('hi anyone there');
    await tester.getByRole('button', { name: 'Test' }).click();
    await expect(
      page
        .getByRole('list', { name: 'Verdicts' })
        .getByRole('listitem')
        .filter({ hasText: 'Greeting' })
        .textContent(),
    ).resolves.toBe('Acts Greeting: the text matches — sends to +491709999999: “Hi friend!”');
    await harness.api.request('DELETE', `/gateway/v1/rules/${greeting.body.id}`);
    await page.close();
  });
});

describe('bulk send (items 3–5)', () => {
  it('sends a campaign in its list order although the queue order is newest first', async () => {
    const settings = await harness.api.get<{ messages: { processing_order: string } }>('/settings');
    expect(settings.body.messages.processing_order).toBe('LIFO');
    await harness.api.post('/gateway/v1/sending', { paused: true });
    const numbers = ['0170 3000001', '0170 3000002', '0170 3000003', '0170 3000004', '0170 3000005'];
    const page = await signedInPage();
    await page.goto(`${harness.url}/ui/#/campaigns`);
    await startCampaign(page, 'In order', numbers);
    await harness.api.post('/gateway/v1/sending', { paused: false });
    const e164 = numbers.map((number) => `+49${number.replace(/^0| /g, '')}`);
    await pollUntil(() => e164.every((number) => textsTo(number).length > 0), {
      what: 'the campaign to reach the network',
      limitMs: 60_000,
    });
    const order = modem()
      .accepted.map((pdu) => pdu.decoded.recipient.number)
      .filter((number) => e164.includes(number));
    expect(order).toEqual(e164);
    await page.close();
  });

  it('keeps a finished campaign’s counts live, and shows a paused or cancelled one as it is', async () => {
    const page = await signedInPage();
    await page.goto(`${harness.url}/ui/#/campaigns`);
    await startCampaign(page, 'Live counts', ['0170 4000001', '0170 4000002', '0170 4000003']);
    const done = page.getByRole('article', { name: 'Campaign Live counts' }).getByRole('status');
    await done.filter({ hasText: 'Completed' }).waitFor({ timeout: 60_000 });
    // Status reports come a second after each send: the last ones after the queue is empty.
    await done.filter({ hasText: '3 delivered' }).waitFor({ timeout: 30_000 });

    await harness.api.post('/gateway/v1/sending', { paused: true });
    await startCampaign(page, 'Held', ['0170 4000011', '0170 4000012']);
    const held = page.getByRole('article', { name: 'Campaign Held' });
    await held
      .getByRole('status')
      .filter({ hasText: /^Paused \(sending is paused\): 2 recipients/ })
      .waitFor();
    await held.getByRole('button', { name: 'Cancel campaign' }).click();
    await held.getByText('Cancel 2 messages still waiting? Those already sent stay sent.').waitFor();
    await held.getByRole('button', { name: 'Yes, cancel campaign' }).click();
    await held
      .getByRole('status')
      .filter({ hasText: /^Cancelled: 2 recipients — 0 sent/ })
      .waitFor();
    await expect(held.getByRole('progressbar').getAttribute('value')).resolves.toBe('0');
    await harness.api.post('/gateway/v1/sending', { paused: false });
    await page.close();
  });

  it('schedules a bulk send for later, estimates its time and downloads its report as CSV', async () => {
    const page = await signedInPage();
    await page.goto(`${harness.url}/ui/#/campaigns`);
    // Not in number order, and one of them a contact: the report keeps the list's order and names her.
    const numbers = ['0170 6000003', '0160 1111111', '0170 6000001'];
    await page.getByLabel('Campaign name').fill('Tomorrow');
    await page.getByLabel('Message').fill('We open at 8 tomorrow');
    await page.getByLabel('Numbers').fill(numbers.join('\n'));
    const later = new Date(Date.now() + 2 * 3_600_000);
    const two = (value: number) => String(value).padStart(2, '0');
    await page
      .getByLabel('Send later')
      .fill(
        `${later.getFullYear()}-${two(later.getMonth() + 1)}-${two(later.getDate())}T${two(later.getHours())}:${two(later.getMinutes())}`,
      );
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect
      .poll(() => page.getByRole('status', { name: 'Time estimate' }).textContent())
      .toMatch(
        /^About \d+ s at the modems' limits \(1 modem ready, no limit per period; about 3 s per SMS part\)\.$/,
      );
    await page.getByRole('button', { name: 'Send to 3 recipients' }).click();
    await page.getByText(/^Queued 3 messages for /).waitFor();
    const card = page.getByRole('article', { name: 'Campaign Tomorrow' });
    await card
      .getByRole('status')
      .filter({ hasText: /^Scheduled for / })
      .waitFor();

    const download = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Download report (CSV)' }).click();
    const path = await (await download).path();
    const lines = readFileSync(path, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('recipient,state,error,queued_at,sent_at,delivered_at,failed_at,cancelled_at,name');
    const cells = lines.slice(1).map((line) => line.split(','));
    expect(cells.map((row) => [...row.slice(0, 3), row.at(-1)].join(','))).toEqual([
      '"=""+491706000003""",Pending,,',
      '"=""+491601111111""",Pending,,Eva Baker',
      '"=""+491706000001""",Pending,,',
    ]);
    expect(textsTo('+491706000001')).toEqual([]);
    await card.getByRole('button', { name: 'Cancel campaign' }).click();
    await card.getByRole('button', { name: 'Yes, cancel campaign' }).click();
    await card
      .getByRole('status')
      .filter({ hasText: /^Cancelled/ })
      .waitFor();
    await page.close();
  });
});

/** Starts a bulk send to typed `numbers` from the Bulk send screen. */
async function startCampaign(page: Page, name: string, numbers: readonly string[]): Promise<void> {
  await page.getByLabel('Campaign name').fill(name);
  await page.getByLabel('Message').fill('Your table is ready');
  await page.getByLabel('Numbers').fill(numbers.join('\n'));
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByRole('button', { name: `Send to ${numbers.length} recipients` }).click();
  await page.getByText(`Queued ${numbers.length} messages.`).waitFor();
}

describe('failures that hide (items 6–9)', () => {
  it('warns in Compose of an opted-out number, and counts and lists its failure on a message that stays Sent', async () => {
    await harness.api.post('/gateway/v1/opt-outs', { phoneNumber: '+491705550001' });
    const page = await signedInPage();
    await page.goto(`${harness.url}/ui/#/dashboard`);
    const failedToday = page.locator('.tile', { hasText: 'Failed today' }).locator('.tile-value');
    await expect.poll(() => failedToday.textContent(), { timeout: 15_000 }).toMatch(/^\d+$/);
    const failedBefore = Number(await failedToday.textContent());
    await page.goto(`${harness.url}/ui/#/messages`);
    await page.getByRole('button', { name: 'New message' }).click();
    const compose = page.getByRole('form', { name: 'Compose message' });
    await compose.getByLabel('Recipients').fill('0170 5550001, 0160 1111111');
    await compose.getByLabel('Message', { exact: true }).fill('Doors open at 9');
    await expect
      .poll(() => compose.getByRole('alert', { name: 'Opted-out numbers' }).textContent())
      .toContain('+491705550001 asked not to be texted');
    await compose.getByRole('button', { name: 'Send to 2 recipients' }).click();
    const row = page.locator('tr[data-message-id]').filter({ hasText: 'Doors open at 9' });
    await row.getByText('1 of 2 recipients failed: +491705550001').waitFor({ timeout: 30_000 });
    await row.getByText('Sent', { exact: true }).waitFor({ timeout: 30_000 });

    await page.getByLabel('State').selectOption({ label: 'Failed (any recipient)' });
    await expect
      .poll(() => page.locator('tr[data-message-id]').allTextContents(), { timeout: 15_000 })
      .toContainEqual(expect.stringContaining('Doors open at 9'));
    await page.goto(`${harness.url}/ui/#/dashboard`);
    await expect
      .poll(async () => Number(await failedToday.textContent()), { timeout: 15_000 })
      .toBe(failedBefore + 1);
    await page.close();
  });

  it('shows a phone that never answered as never seen, with nothing it never told', async () => {
    // Port 9 (discard) on loopback: nothing answers there.
    const silent = await startGatewayHarness({
      phoneTiming: { pollIntervalMs: 500, retryInitialMs: 500, requestTimeoutMs: 1_000 },
      options: { uiDirectory: 'dist/ui', phones: ['http://sms:app-password@127.0.0.1:9'] },
    });
    try {
      const page = await openTab(browser, { viewport });
      await signIn(page, silent.url, harnessUser, harnessPassword);
      await page.goto(`${silent.url}/ui/#/modems`);
      const panel = page.locator('section.modem-panel');
      await panel.waitFor();
      const facts = panel.locator('dl.facts');
      await expect(facts.locator('dt', { hasText: 'Last seen' }).locator('+ dd').textContent()).resolves.toBe(
        'never seen',
      );
      await expect(facts.locator('dt', { hasText: /^SIM 1$/ }).count()).resolves.toBe(0);
      await expect(panel.getByRole('heading', { level: 2 }).textContent()).resolves.not.toContain('SIM 1');
      await page.goto(`${silent.url}/ui/#/dashboard`);
      await expect(
        page.locator('.modem-card dt', { hasText: 'Last seen' }).locator('+ dd').textContent(),
      ).resolves.toBe('never seen');
      await page.close();
    } finally {
      await silent.close();
    }
  });

  it('sends failed webhook deliveries again, one and all, says they are unsigned, and clears the banner', async () => {
    let receiverUp = false;
    const received: string[] = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        if (receiverUp) received.push(body);
        response.writeHead(receiverUp ? 200 : 503).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    try {
      await harness.api.patch('/settings', { webhooks: { retry_count: 0 } });
      await harness.api.post('/webhooks', {
        id: 'crm',
        url: `http://127.0.0.1:${port}/hook`,
        event: 'sms:sent',
      });
      const page = await signedInPage();
      await page.goto(`${harness.url}/ui/#/webhooks`);
      await expect(page.getByRole('note').textContent()).resolves.toContain('Deliveries are not signed');
      await page.getByRole('button', { name: 'Deliveries' }).click();
      for (const _attempt of [1, 2]) await page.getByRole('button', { name: 'Send test event' }).click();
      const deliveries = page.getByRole('table', { name: 'Deliveries' });
      await pollUntil(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return (await deliveries.getByText('failed', { exact: true }).count()) === 2;
        },
        { what: 'two failed deliveries', limitMs: 30_000, intervalMs: 500 },
      );
      const banner = page.locator('[data-status="webhooks"]');
      await banner.waitFor({ timeout: 15_000 });

      receiverUp = true;
      await deliveries.getByRole('button', { name: 'Send again' }).first().click();
      await pollUntil(() => received.length === 1, {
        what: 'the first delivery sent again',
        limitMs: 15_000,
      });
      await page.getByRole('button', { name: 'Send all 1 failed again' }).click();
      await pollUntil(() => received.length === 2, {
        what: 'the other delivery sent again',
        limitMs: 15_000,
      });
      await banner.waitFor({ state: 'detached', timeout: 15_000 });
      await page.close();
    } finally {
      await harness.api.request('DELETE', '/webhooks/crm');
      receiver.close();
    }
  });
});

describe('finding things (item 10)', () => {
  it('finds numbers as typed, text without regard to accents and case, and received messages by contact name', async () => {
    await harness.api.post('/gateway/v1/contacts', { name: 'Jürgen Müller', phoneNumber: '0170 7000001' });
    modem().injectIncoming({ sender: '+491707000001', text: 'Is the shop open on Saturday?' });
    modem().injectIncoming({ sender: '+491707000002', text: 'Gruß von Frau Müller' });
    await harness.api.post('/messages', {
      phoneNumbers: ['+491601111111'],
      textMessage: { text: 'Find me later' },
    });
    await harness.api.post('/messages', {
      phoneNumbers: ['+491601111111'],
      textMessage: { text: 'Grüße an Frau Müller' },
    });
    const page = await signedInPage();
    await page.goto(`${harness.url}/ui/#/contacts`);
    const contacts = page.getByRole('table', { name: 'Contacts' });
    const search = page.getByRole('searchbox');
    for (const typed of ['Muller', 'JURGEN', '(0170) 700-0001', '0170 700']) {
      await search.fill(typed);
      await expect
        .poll(async () => (await contacts.getByRole('row').allTextContents()).slice(1), { timeout: 15_000 })
        .toEqual([expect.stringContaining('Jürgen Müller')]);
    }

    await page.goto(`${harness.url}/ui/#/messages`);
    await page.getByRole('searchbox').fill('0160 1111111');
    await page.locator('tr[data-message-id]').filter({ hasText: 'Find me later' }).waitFor();
    await page.getByRole('searchbox').fill('MULLER');
    await expect
      .poll(() => page.locator('tr[data-message-id]').allTextContents(), { timeout: 15_000 })
      .toEqual([expect.stringContaining('Grüße an Frau Müller')]);

    await page.goto(`${harness.url}/ui/#/inbox`);
    await page.getByRole('searchbox').fill('muller');
    await page.getByRole('table', { name: 'Received messages' }).getByText('Gruß von Frau Müller').waitFor();
    await page.getByRole('button', { name: 'Messages from Jürgen Müller (+491707000001)' }).click();
    await page
      .getByRole('table', { name: 'Received messages' })
      .getByText('Is the shop open on Saturday?')
      .waitFor();
    await page.close();
  });
});

describe('layout and access at 640 px (items 11–12)', () => {
  const narrow = { width: 640, height: 700 };

  /**
   * 'on screen' when `locator` is inside the 640 × 700 window as it is scrolled now: whole, or
   * (`start`) its top left corner, for a panel taller than the window.
   */
  async function onScreen(locator: import('playwright-core').Locator, start = false): Promise<string> {
    const box = await locator.boundingBox();
    const right = box && (start ? box.x : box.x + box.width);
    const bottom = box && (start ? box.y : box.y + box.height);
    const inside =
      box !== null &&
      box.x >= 0 &&
      box.y >= 0 &&
      (right ?? 0) < narrow.width &&
      (bottom ?? 0) < narrow.height;
    return inside ? 'on screen' : `at ${JSON.stringify(box)}`;
  }

  it('keeps the State column on screen and opens "View message" and "Simulate incoming SMS" where they are seen', async () => {
    const page = await signedInPage(narrow);
    await page.goto(`${harness.url}/ui/#/messages`);
    await page.getByRole('button', { name: 'New message' }).click();
    const compose = page.getByRole('form', { name: 'Compose message' });
    await compose.getByLabel('Recipients').fill('0170 8000001');
    await compose.getByLabel('Message', { exact: true }).fill('Seen on a small screen');
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    await compose.getByRole('button', { name: 'View message' }).click();
    const detail = page.locator('tr.detail-row');
    await detail.waitFor();
    await expect.poll(() => onScreen(detail, true)).toBe('on screen');
    // The opened row spans every column, wider than the table's visible part: its detail keeps
    // within that part, and stays there while the columns scroll sideways.
    const table = page.getByRole('table', { name: 'Messages' });
    const detailWithinTable = async () => {
      const [outer, inner] = [await table.boundingBox(), await detail.locator('.detail').boundingBox()];
      return (
        outer !== null &&
        inner !== null &&
        inner.x >= outer.x &&
        inner.x + inner.width <= outer.x + outer.width
      );
    };
    await expect.poll(detailWithinTable).toBe(true);
    await table.evaluate((element) => {
      element.scrollLeft = element.scrollWidth;
    });
    await expect.poll(detailWithinTable).toBe(true);
    await table.evaluate((element) => {
      element.scrollLeft = 0;
    });
    await expect(
      onScreen(page.getByRole('table', { name: 'Messages' }).getByRole('columnheader', { name: 'State' })),
    ).resolves.toBe('on screen');

    await page.goto(`${harness.url}/ui/#/modems`);
    await page.getByRole('button', { name: 'Simulate incoming SMS' }).click();
    const simulate = page.locator('.subpanel').filter({ hasText: 'from a simulated phone' });
    await expect.poll(() => onScreen(simulate.getByRole('heading'))).toBe('on screen');
    await page.close();
  });

  it('opens a conversation at its newest message, scrollable by keyboard, named and flagged opted out', async () => {
    const sender = '+491709000001';
    await harness.api.post('/gateway/v1/contacts', { name: 'Ola Nordmann', phoneNumber: sender });
    for (let index = 1; index <= 30; index++)
      modem().injectIncoming({ sender, text: `Question number ${index}` });
    await harness.api.post('/gateway/v1/opt-outs', { phoneNumber: sender });
    await pollUntil(
      async () => {
        const thread = await harness.api.get<unknown[]>(
          `/gateway/v1/conversations/${encodeURIComponent(sender)}?limit=100`,
        );
        return thread.status === 200 && thread.body.length === 30;
      },
      { what: 'the thirty messages in the thread', limitMs: 60_000, intervalMs: 250 },
    );
    const page = await signedInPage(narrow);
    await page.goto(`${harness.url}/ui/#/conversations`);
    await page.getByRole('button', { name: /Ola Nordmann/ }).click();
    const thread = page.getByRole('region', { name: 'Conversation with Ola Nordmann' });
    // The opt-out flag joins the heading when the opt-out list has been read.
    await expect
      .poll(() => thread.getByRole('heading', { level: 2 }).textContent())
      .toBe(`Ola Nordmann ${sender} Opted out`);
    const bubbles = thread.getByRole('list', { name: 'Messages' });
    await bubbles.getByText('Question number 30').waitFor();
    // The newest message is within the list's own scrolled view (the list may be below the fold).
    const newestShown = async () => {
      const [list, newest] = [
        await bubbles.boundingBox(),
        await bubbles.getByText('Question number 30').boundingBox(),
      ];
      return (
        list !== null &&
        newest !== null &&
        newest.y >= list.y &&
        newest.y + newest.height <= list.y + list.height
      );
    };
    await expect.poll(newestShown).toBe(true);
    await bubbles.focus();
    await expect(
      page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null"),
    ).resolves.toBe('Messages');
    await page.close();
  }, 180_000);

  it('names every webhook event and offers every scope a token may hold', async () => {
    const page = await signedInPage(narrow);
    await page.goto(`${harness.url}/ui/#/webhooks`);
    // The options come with the screen's first render, which the navigation does not wait for.
    const options = page.getByLabel('Event').locator('option');
    await options.filter({ hasText: 'autoreply:sent' }).waitFor({ state: 'attached' });
    const events = await options.allTextContents();
    expect(events.filter((label) => !/^\S+ — \S/.test(label))).toEqual([]);
    expect(events).toContain('autoreply:sent — An auto-reply rule answered an SMS');

    const token = await harness.api.post<{ id: string }>('/auth/token', { scopes: ['rules:read'] });
    await page.goto(`${harness.url}/ui/#/api`);
    const scopes = page.getByRole('group', { name: 'Allowed to' });
    for (const scope of ['rules:write', 'optouts:read', 'conversations:write']) {
      await expect(scopes.locator('label', { hasText: scope }).count()).resolves.toBe(1);
    }
    await page.getByRole('button', { name: `Revoke ${token.body.id}` }).click();
    await page.getByRole('button', { name: `Revoke ${token.body.id}` }).waitFor({ state: 'detached' });
    await page.close();
  });

  it('speaks plainly: no default country for a number with its own, priority and refused connections in words', async () => {
    const page = await signedInPage(narrow);
    await page.goto(`${harness.url}/ui/#/messages`);
    await page.getByRole('button', { name: 'New message' }).click();
    const compose = page.getByRole('form', { name: 'Compose message' });
    await compose.getByLabel('Recipients').fill('+4915');
    await expect(
      compose.getByRole('alert', { name: 'Numbers that cannot be read' }).textContent(),
    ).resolves.toBe('+4915 is too short for a number');
    await expect(compose.getByText(/^Higher goes first; 0 is normal/).count()).resolves.toBe(1);

    await harness.api.post('/webhooks', { id: 'dead', url: 'http://127.0.0.1:9/hook', event: 'sms:sent' });
    try {
      await page.goto(`${harness.url}/ui/#/webhooks`);
      await page.getByRole('button', { name: 'Deliveries' }).click();
      await page.getByRole('button', { name: 'Send test event' }).click();
      const deliveries = page.getByRole('table', { name: 'Deliveries' });
      await pollUntil(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return (await deliveries.getByText(/^nothing accepted the connection/).count()) > 0;
        },
        { what: 'the refused delivery in plain words', limitMs: 30_000, intervalMs: 500 },
      );
    } finally {
      await harness.api.request('DELETE', '/webhooks/dead');
    }
    await page.close();
  });
});

describe('lost delivery reports (item 7)', () => {
  it('says on every screen when a modem loses delivery reports, and on the messages they belong to', async () => {
    // A two-slot SIM holding two unsent drafts: the report of the next send finds no free slot.
    const full = await startGatewayHarness({
      ptyModems: 1,
      ptyModemOptions: () => ({ storageSize: 2, statusReportDelayMs: 200 }),
      modemTiming: { pollAfterSendMs: 300 },
      options: { uiDirectory: 'dist/ui' },
    });
    try {
      await waitForReadyModems(full.api, 1);
      full.ptyModem(0).storeUnsent('+491700000001', 'draft one');
      full.ptyModem(0).storeUnsent('+491700000002', 'draft two');
      await full.api.post('/messages', {
        phoneNumbers: ['+491707700001'],
        textMessage: { text: 'Will its report come?' },
        withDeliveryReport: true,
      });
      const page = await openTab(browser, { viewport });
      await signIn(page, full.url, harnessUser, harnessPassword);
      await page.goto(`${full.url}/ui/#/messages`);
      await page
        .getByRole('region', { name: 'Gateway status' })
        .getByText(/^Delivery reports are being lost on /)
        .waitFor({ timeout: 30_000 });
      const row = page.locator('tr[data-message-id]').filter({ hasText: 'Will its report come?' });
      await row.getByText('report may be lost').waitFor({ timeout: 30_000 });
      await page.close();
    } finally {
      await full.close();
    }
  });
});
