import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import buildUi from '../support/buildUi.js';
import { pollUntil } from '../support/pollUntil.js';
import {
  apiCall,
  deskWindowSizes,
  newTab,
  openScreen,
  signIn,
  startUiGateway,
  type UiGateway,
} from './uiGateway.js';

/**
 * Issue 50, item 4: Conversations with many parties, at both window sizes, as an owner and as a
 * viewer — a search, a thread that opens where the eye is, "Add to contacts", and the opt-out
 * said at the reply box.
 */
let ui: UiGateway;
let browser: Browser;
const viewer = { username: 'vic', password: 'viewer-pass-12' };
const parties = Array.from({ length: 40 }, (_, index) => `+1555010${String(index).padStart(4, '0')}`);
const [named, stranger, quitter] = [parties[0], parties[1], parties[2]] as [string, string, string];

beforeAll(async () => {
  await buildUi();
  ui = await startUiGateway();
  const modem = ui.gateway.simulatedModems[0];
  if (!modem) throw new Error('the gateway has no simulated modem');
  // The first parties wrote first: they are the lowest rows of the list. Ten at a time, as a
  // SIM's storage holds only so many before the gateway has read and freed them.
  for (let start = 0; start < parties.length; start += 10) {
    for (const sender of parties.slice(start, start + 10))
      modem.injectIncoming({ sender, text: `Hello from ${sender}` });
    await pollUntil(
      async () =>
        (await apiCall<unknown[]>(ui.baseUrl, 'GET', '/gateway/v1/conversations?limit=100')).length ===
        start + 10,
      { what: `${start + 10} conversations`, limitMs: 60_000, intervalMs: 250 },
    );
  }
  await apiCall(ui.baseUrl, 'POST', '/gateway/v1/contacts', { name: 'Zoë Ørsted', phoneNumber: named });
  await apiCall(ui.baseUrl, 'POST', '/gateway/v1/opt-outs', { phoneNumber: quitter });
  await apiCall(ui.baseUrl, 'POST', '/gateway/v1/users', {
    name: viewer.username,
    password: viewer.password,
    role: 'viewer',
  });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

const sizes = deskWindowSizes;

async function conversationsAs(size: (typeof sizes)[number], login?: typeof viewer): Promise<Page> {
  const page = await newTab(browser, { viewport: size });
  await signIn(page, ui.baseUrl, login);
  await openScreen(page, 'Conversations');
  return page;
}

/** Whether the element's top is inside the window as it is scrolled now (boxes are relative to it). */
async function topInView(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  return box !== null && box.y >= 0 && box.y < height;
}

const list = (page: Page) => page.getByRole('region', { name: 'Conversation list' });

describe.each(sizes)('Conversations at $width × $height', (size) => {
  it('opens a thread low in the list where the eye is, and finds a party by name or digits', async () => {
    const page = await conversationsAs(size);
    const lowest = list(page).getByRole('button', { name: new RegExp(stranger.replace('+', '\\+')) });
    await lowest.scrollIntoViewIfNeeded();
    await lowest.click();
    await page.getByRole('region', { name: `Conversation with ${stranger}` }).waitFor();
    await expect.poll(() => topInView(page, 'section.thread')).toBe(true);

    await page.getByLabel('Search').fill('zoe ORS');
    await expect.poll(() => list(page).getByRole('button').allTextContents()).toHaveLength(1);
    await list(page)
      .getByRole('button', { name: /Zoë Ørsted/ })
      .waitFor();
    await page.getByLabel('Search').fill('555 010 0039');
    await list(page)
      .getByRole('button', { name: /\+15550100039/ })
      .waitFor();
    await page.getByLabel('Search').fill('nobody at all');
    await list(page).getByText('No conversation matches.').waitFor();
    await page.close();
  });
});

describe('a party from a conversation', () => {
  it('becomes a contact from the thread, and an opted-out one is told at the reply box', async () => {
    const page = await conversationsAs(sizes[0]);
    await list(page)
      .getByRole('button', { name: new RegExp(stranger.replace('+', '\\+')) })
      .click();
    const thread = page.getByRole('region', { name: `Conversation with ${stranger}` });
    await thread.getByRole('button', { name: 'Add to contacts' }).click();
    const form = thread.getByRole('form', { name: 'New contact' });
    expect(await form.getByLabel('Phone number').inputValue()).toBe(stranger);
    await form.getByLabel('Name').fill('Sam Stranger');
    await form.getByRole('button', { name: 'Save contact' }).click();
    await page.getByRole('region', { name: 'Conversation with Sam Stranger' }).waitFor();
    expect(await page.getByRole('button', { name: 'Add to contacts' }).count()).toBe(0);

    await list(page)
      .getByRole('button', { name: new RegExp(quitter.replace('+', '\\+')) })
      .click();
    const reply = page.getByRole('form', { name: 'Reply' });
    await reply.getByText('asked not to be texted, so a reply would fail').waitFor();
    await reply.getByLabel('Your reply').fill('Are you sure?');
    expect(await reply.getByRole('button', { name: 'Send reply' }).isDisabled()).toBe(true);
    await page.close();
  });

  it('offers a viewer neither a new contact nor a reply box', async () => {
    const page = await conversationsAs(sizes[1], viewer);
    await list(page)
      .getByRole('button', { name: /Zoë Ørsted/ })
      .click();
    await page.getByRole('region', { name: 'Conversation with Zoë Ørsted' }).waitFor();
    await list(page)
      .getByRole('button', { name: new RegExp(parties[5]?.replace('+', '\\+') ?? '') })
      .click();
    await page.getByRole('region', { name: `Conversation with ${parties[5]}` }).waitFor();
    expect(await page.getByRole('button', { name: 'Add to contacts' }).count()).toBe(0);
    expect(await page.getByRole('form', { name: 'Reply' }).count()).toBe(0);
    await page.close();
  });
});
