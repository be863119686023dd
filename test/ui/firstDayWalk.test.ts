import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../bench/support/gatewayProcess.js';
import { axeViolations } from '../support/axe.js';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { pollUntil } from '../support/pollUntil.js';
import { portAnswers } from '../support/portAnswers.js';
import { sendWithSwaks, serverReplies } from '../support/swaks.js';
import {
  apiCall,
  deskWindowSizes,
  newTab,
  openScreen,
  signIn,
  startUiGateway,
  type UiGateway,
  uiPassword,
  uiUser,
} from './uiGateway.js';

/**
 * Issue 50's first day, walked again in Chromium at both window sizes as an owner, an operator
 * and a viewer: two simulated modems, the first SIM capped by its plan with a message waiting
 * for it, an app with a daily quota that sent by e-mail (and had a mail to an opted-out number
 * refused), a contact and a stranger who texted, and a `{name}` auto-reply the stranger could not
 * get. Each person finds, on the screen where the work happens, why things are as they are and
 * only the controls their role may use; axe finds nothing on any screen they see.
 */
let ui: UiGateway;
let browser: Browser;

const owner = { username: uiUser, password: uiPassword, role: 'owner' };
const operator = { username: 'olga', password: 'operator-pass-1', role: 'operator' };
const viewer = { username: 'vic', password: 'viewer-pass-12', role: 'viewer' };
const shop = { user: 'shop', password: 'shop-secret-1' };
const zoe = { name: 'Zoë Ørsted', phoneNumber: '+15550100001' };
const stranger = '+15550100077';
const optedOut = '+15550100099';
let heldId = '';
let mailedId = '';

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway({ simulatedModems: 2 });
  const smtpPort = await freeLoopbackPort();
  await apiCall(ui.baseUrl, 'PATCH', '/settings', {
    desk: { default_country: 'US' },
    smtp: { enabled: true, port: smtpPort },
  });
  for (const person of [operator, viewer]) {
    await apiCall(ui.baseUrl, 'POST', '/gateway/v1/users', {
      name: person.username,
      password: person.password,
      role: person.role,
    });
  }
  await apiCall(ui.baseUrl, 'POST', '/gateway/v1/apps', {
    name: shop.user,
    password: shop.password,
    quota: { perDay: 3, resetAt: '00:00', timeZone: 'UTC' },
    incoming: { mode: 'none' },
  });
  await apiCall(ui.baseUrl, 'POST', '/gateway/v1/contacts', zoe);
  await apiCall(ui.baseUrl, 'POST', '/gateway/v1/opt-outs', { phoneNumber: optedOut });
  await apiCall(ui.baseUrl, 'POST', '/gateway/v1/rules', {
    name: 'Call back',
    match: { kind: 'startsWith', pattern: 'call' },
    action: { kind: 'reply', text: 'Thanks {name}, we call you back.' },
  });

  // The first modem's SIM may send nothing this month; a message for that modem waits.
  const devices = await apiCall<{ id: string; createdAt: string }[]>(ui.baseUrl, 'GET', '/devices');
  const first = devices[0]?.id ?? '';
  await apiCall(ui.baseUrl, 'PUT', `/gateway/v1/plans/${first}/1`, { perMonth: 0 });
  heldId = (
    await apiCall<{ id: string }>(ui.baseUrl, 'POST', '/messages', {
      textMessage: { text: 'For the capped SIM' },
      phoneNumbers: ['+15550100050'],
      deviceId: first,
    })
  ).id;

  const modem = ui.gateway.simulatedModems[0];
  if (!modem) throw new Error('the gateway has no simulated modem');
  modem.injectIncoming({ sender: zoe.phoneNumber, text: 'Hello from Zoë' });
  modem.injectIncoming({ sender: stranger, text: 'call me please' });

  await pollUntil(() => portAnswers(smtpPort), { what: 'the SMTP listener', limitMs: 30_000 });
  const mailed = await sendWithSwaks({
    port: smtpPort,
    auth: { user: shop.user, password: shop.password },
    to: ['+15550100060@sms'],
    data: 'Subject: Table\r\n\r\nYour table for two is ready',
  });
  expect(mailed.exitCode, mailed.transcript).toBe(0);
  mailedId = /queued as (\S+)/.exec(serverReplies(mailed.transcript).join('\n'))?.[1] ?? '';
  const refused = await sendWithSwaks({
    port: smtpPort,
    auth: { user: shop.user, password: shop.password },
    to: [`${optedOut}@sms`],
    data: 'Subject: Offer\r\n\r\nA new offer',
  });
  expect(serverReplies(refused.transcript).join('\n')).toMatch(/^550 /m);

  await pollUntil(
    async () => {
      const rules = await apiCall<{ lastSkipped?: unknown }[]>(ui.baseUrl, 'GET', '/gateway/v1/rules');
      return rules[0]?.lastSkipped !== undefined;
    },
    { what: 'the skipped auto-reply on its rule', limitMs: 30_000, intervalMs: 200 },
  );
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

const sizes = deskWindowSizes;

const walks = sizes.flatMap((size) => [owner, operator, viewer].map((person) => ({ size, person })));

/** Opens a screen, waits for it to load, and has axe look at it as this person sees it. */
async function visit(page: Page, label: string): Promise<void> {
  await openScreen(page, label);
  await page.locator('.loading').first().waitFor({ state: 'detached' });
}

/** axe finds nothing, and nothing makes the page scroll sideways (wide tables scroll within). */
async function expectAccessible(page: Page, where: string): Promise<void> {
  expect({ where, violations: await axeViolations(page) }).toEqual({ where, violations: [] });
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect({ where, overflow }).toEqual({ where, overflow: 0 });
}

describe.each(walks)('the first day as $person.role at $size.width × $size.height', ({ size, person }) => {
  const writes = person.role !== 'viewer';

  it('finds why each thing waits or stays silent, and only the controls the role may use', async () => {
    const page = await newTab(browser, { viewport: size });
    await signIn(page, ui.baseUrl, person);

    // Item 7: the banners fold, so a screen's heading stays in the upper half of the window.
    await visit(page, 'Dashboard');
    const heading = await page.getByRole('heading', { level: 1, name: 'Dashboard' }).boundingBox();
    expect(heading?.y).toBeLessThan(size.height / 2);
    await expectAccessible(page, 'Dashboard');

    // Items 2, 3 and 6 on Messages: why the held message waits and until when; the mailed one
    // names the app and the way in; "New message" only for a role that may send.
    await visit(page, 'Messages');
    const held = page.locator(`tr[data-message-id="${heldId}"]`);
    await held.getByText(/^Waits: its SIM’s plan cap is reached, until \d{4}-\d\d-\d\d \d\d:\d\d/).waitFor();
    expect(await page.getByRole('button', { name: 'New message' }).count()).toBe(writes ? 1 : 0);
    const mailed = page.locator(`tr[data-message-id="${mailedId}"]`);
    await mailed.getByRole('button', { name: /Your table for two is ready/ }).click();
    const detail = page.locator('tr.detail-row');
    await expect
      .poll(() => detail.locator('dt:text-is("Sent by") + dd').textContent())
      .toBe('shop, by e-mail');
    await expectAccessible(page, 'Messages with a message open');

    // Items 3 and 9 on Modems: the capped SIM on its card; failing a send on purpose is for owners.
    await visit(page, 'Modems');
    await page
      .getByText(/^SIM 1 is capped until /)
      .first()
      .waitFor();
    expect(await page.getByRole('button', { name: 'Simulate a failed send' }).count()).toBe(
      person.role === 'owner' ? 2 : 0,
    );
    await expectAccessible(page, 'Modems');

    // Items 1 and 4 on Conversations: a search by name, and in the stranger's thread the
    // auto-reply that stayed silent; "Add to contacts" for a role that may add one.
    await visit(page, 'Conversations');
    const list = page.getByRole('region', { name: 'Conversation list' });
    await page.getByLabel('Search').fill('zoe');
    await expect.poll(() => list.getByRole('button').allTextContents()).toHaveLength(1);
    await list.getByRole('button', { name: /Zoë Ørsted/ }).waitFor();
    await page.getByLabel('Search').fill('');
    await list.getByRole('button', { name: new RegExp(stranger.replace('+', '\\+')) }).click();
    const thread = page.getByRole('region', { name: `Conversation with ${stranger}` });
    await thread
      .getByText(/^The auto-reply “Call back” sent nothing to this number at .*: \{name\} has no value/)
      .waitFor();
    await expect
      .poll(() => thread.getByRole('button', { name: 'Add to contacts' }).count())
      .toBe(writes ? 1 : 0);
    await expectAccessible(page, 'Conversations with a thread open');

    // Item 1 on Auto-reply: the rule says whom it did not answer; only an owner edits rules.
    await visit(page, 'Auto-reply');
    await page.getByText(new RegExp(`^Sent no reply to \\${stranger} at `)).waitFor();
    const addRule = page.getByRole('button', { name: 'Add rule' });
    if (person.role === 'owner') {
      await addRule.click();
      const editor = page.getByRole('form', { name: 'Rule', exact: true });
      await editor.getByLabel('Reply text').fill('Hi {name}');
      await editor
        .getByRole('note')
        .getByText(/no value for a sender who is not in your contacts/)
        .waitFor();
    } else {
      expect(await addRule.count()).toBe(0);
      await page.getByText(`Your role (${person.role}) lets you see`, { exact: false }).first().waitFor();
    }
    await expectAccessible(page, 'Auto-reply');

    // Item 5 on Bulk send: a list pasted from a spreadsheet with two bad rows can skip them.
    await visit(page, 'Bulk send');
    if (writes) {
      await page.getByLabel('Message').fill('Hello {name}');
      await page
        .getByLabel('Numbers')
        .fill('Ann Example\t+15550100101\nBad row\tnot a number\nBob Example\t+15550100102\nWorse\t12');
      await page.getByRole('button', { name: 'Preview' }).click();
      await page
        .getByLabel(/^Skip the 2 recipients with a problem and send to the other 2 recipients/)
        .waitFor();
      await page
        .getByRole('list', { name: 'Examples' })
        .getByText(/Hello Ann Example/)
        .waitFor();
      const problems = page.getByRole('table', { name: 'Recipients with problems' });
      expect(await problems.locator('tbody td:first-child').allTextContents()).toEqual([
        'Numbers line 2',
        'Numbers line 4',
      ]);
    } else {
      expect(await page.getByRole('form', { name: 'Bulk send' }).count()).toBe(0);
    }
    await expectAccessible(page, 'Bulk send');

    // Item 6 on Logs: the refused mail is there, with its reply.
    await visit(page, 'Logs');
    await page.getByText('mail refused').first().waitFor();
    await expectAccessible(page, 'Logs');

    // Item 3 on People: the app's row counts its quota (only an owner manages people and apps).
    const people = page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'People' });
    if (person.role === 'owner') {
      await visit(page, 'People');
      await page.getByRole('table', { name: 'Apps' }).getByText('1 of 3 today (resets 00:00 UTC)').waitFor();
      await expectAccessible(page, 'People');
    } else {
      expect(await people.count()).toBe(0);
    }

    await page.close();
  }, 180_000);
});

describe('the audit trail after the walks', () => {
  it('holds one sign-in line per sign-in: each person signed in once at each size', async () => {
    const trail = await apiCall<{ actorName: string; action: string }[]>(
      ui.baseUrl,
      'GET',
      '/gateway/v1/audit?limit=500',
    );
    const signIns = trail
      .filter((event) => event.action === 'POST /auth/token')
      .map((event) => event.actorName);
    expect(signIns.sort()).toEqual(['admin', 'admin', 'olga', 'olga', 'vic', 'vic']);
  });
});
