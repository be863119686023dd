import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * The desk in real headless Chromium against the real gateway, whose modems are zero-delay
 * simulated modems behind ptys opened by the real serialport binding.
 */
const viewport = { width: 1024, height: 700 };
/**
 * Enough that the bar moves through many refreshes while two modems drain the queue; the
 * 50,000-row limits and the event loop beside them are test/desk/bulkLimits.test.ts's.
 */
const campaignRows = 3_000;

let harness: GatewayHarness;
let browser: Browser;
let fileDir: string;

beforeAll(async () => {
  await buildUi();
  harness = await startGatewayHarness({
    ptyModems: 2,
    ptyModemOptions: () => ({ statusReportDelayMs: 0 }),
    options: { uiDirectory: 'dist/ui' },
  });
  await waitForReadyModems(harness.api, 2);
  await harness.api.patch('/settings', { desk: { default_country: 'DE' } });
  browser = await launchBrowser();
  fileDir = mkdtempSync(join(tmpdir(), 'desk-ui-files-'));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  if (fileDir) rmSync(fileDir, { recursive: true, force: true });
});

async function signedInPage(): Promise<Page> {
  const page = await openTab(browser, { viewport });
  await signIn(page, harness.url, harnessUser, harnessPassword);
  return page;
}

function csvFile(name: string, content: string): string {
  const path = join(fileDir, name);
  writeFileSync(path, content);
  return path;
}

describe('the desk in Chromium', () => {
  it('imports contacts from Excel CSV once the preview shows no error rows, or leaves those rows out when asked', async () => {
    const page = await signedInPage();
    await page.goto(`${harness.url}/ui/#/contacts`);
    await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const broken = csvFile(
      'broken.csv',
      '\uFEFFName;Mobile;Groups\r\nEva Baker;0160 1111111;Bakers\r\nFritz;0160 2222222;Bakers\r\nEva B.;+49 160 1111111;VIP\r\nBroken;12;\r\n',
    );
    await page.getByLabel('CSV file').setInputFiles(broken);
    await page.getByRole('button', { name: 'Preview' }).click();
    const errors = page.getByRole('table', { name: 'Rows with errors' });
    await expect(errors.getByRole('row').nth(1).textContent()).resolves.toBe(
      '5Phone number12 is too short for a number in DE',
    );
    await expect(page.getByRole('status').filter({ hasText: 'rows:' }).textContent()).resolves.toContain(
      '4 rows: 2 contacts, 1 duplicate rows merged by number, 1 error — fix them, or skip those rows.',
    );
    await expect(page.getByRole('button', { name: /^Import 2 contacts/ }).isDisabled()).resolves.toBe(true);
    expect((await harness.api.get<unknown[]>('/gateway/v1/contacts')).body).toEqual([]);
    // The good rows go in when the clerk chooses so; the wrong one is said to be left out.
    await page.getByRole('button', { name: 'Skip the rows with errors, import 2 contacts' }).click();
    await page.getByText('Imported: 2 new, 0 updated; 1 rows with errors left out.').waitFor();
    expect((await harness.api.get<unknown[]>('/gateway/v1/contacts')).body).toHaveLength(2);

    const fixed = csvFile(
      'fixed.csv',
      '\uFEFFName;Mobile;Groups\r\nEva Baker;0160 1111111;Bakers\r\nFritz;0160 2222222;Bakers\r\nGreta;0160 3333333;VIP\r\n',
    );
    await page.getByLabel('CSV file').setInputFiles(fixed);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Import 3 contacts' }).click();
    await page.getByText('Imported: 1 new, 2 updated.').waitFor();
    const table = page.getByRole('table', { name: 'Contacts' });
    // Group names arrive with their own request, just after the contacts.
    await table.getByRole('row').nth(1).filter({ hasText: 'Bakers' }).waitFor();
    await expect(table.getByRole('row').nth(1).textContent()).resolves.toContain(
      // Groups add up (the first import gave her VIP), listed by name.
      'Eva Baker+491601111111Bakers, VIP',
    );
    await page.close();
  });

  it(
    `sends a ${campaignRows}-row CSV campaign whose progress bar reaches 100 %`,
    async () => {
      const page = await signedInPage();
      await page.goto(`${harness.url}/ui/#/campaigns`);
      await page.getByRole('heading', { level: 1, name: 'Bulk send' }).waitFor();
      const lines = ['phone;name;order'];
      for (let row = 0; row < campaignRows; row++) {
        lines.push(`0170 ${String(1_000_000 + row)};Customer ${row};A-${row}`);
      }
      await page.getByLabel('Campaign name').fill('Orders ready');
      await page.getByLabel('Message').fill('Hello {name}, your order {order} is ready');
      await page
        .getByLabel('Recipients from CSV')
        .setInputFiles(csvFile('orders.csv', `${lines.join('\r\n')}\r\n`));
      await page.getByText(`${campaignRows} rows`).waitFor();
      await page.getByRole('button', { name: 'Preview' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'recipients' }).first().textContent(),
      ).resolves.toBe(
        `${campaignRows} recipients; 1 SMS part per message, ${campaignRows.toLocaleString('en-US')} parts in all.`,
      );
      await page.getByRole('button', { name: `Send to ${campaignRows} recipients` }).click();
      await page.getByText(`Queued ${campaignRows} messages.`).waitFor({ timeout: 60_000 });

      const bar = page.getByRole('progressbar', { name: 'Progress of Orders ready' });
      await expect
        .poll(async () => Number(await bar.getAttribute('value')), { timeout: 20 * 60_000, interval: 2_000 })
        .toBe(100);
      await expect(
        page.getByRole('status').filter({ hasText: 'Completed' }).textContent(),
      ).resolves.toContain(`Completed: ${campaignRows} recipients — ${campaignRows} sent`);
      const accepted = [...harness.acceptedBy(0), ...harness.acceptedBy(1)];
      expect(accepted.length).toBe(campaignRows);
      const sample = accepted.find((pdu) => pdu.decoded.recipient.number === '+491701000042');
      expect(sample?.decoded.text).toBe('Hello Customer 42, your order A-42 is ready');
      await page.close();
    },
    25 * 60_000,
  );

  it('sends the same campaign id again when Send is clicked after a lost answer: one campaign', async () => {
    // Paused, and cancelled below: the test is about what is queued, not what the modems send.
    await harness.api.post('/gateway/v1/sending', { paused: true });
    const page = await signedInPage();
    await page.goto(`${harness.url}/ui/#/campaigns`);
    await page.getByRole('heading', { level: 1, name: 'Bulk send' }).waitFor();
    await page.getByLabel('Campaign name').fill('Lost answer');
    await page.getByLabel('Message').fill('Closed on Monday');
    await page.getByLabel('Numbers').fill('0170 2000001, 0170 2000002, 0170 2000003');
    await page.getByRole('button', { name: 'Preview' }).click();
    const sent: { id?: string }[] = [];
    // The first POST reaches the gateway, which queues the campaign; its answer never arrives.
    await page.route(
      (url) => url.pathname === '/gateway/v1/campaigns',
      async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        sent.push(route.request().postDataJSON() as { id?: string });
        if (sent.length > 1) return route.continue();
        await route.fetch();
        return route.abort('connectionreset');
      },
    );
    await page.getByRole('button', { name: 'Send to 3 recipients' }).click();
    await page.getByText('The gateway cannot be reached. Is it running?').waitFor();
    await page.getByRole('button', { name: 'Send to 3 recipients' }).click();
    await page.getByText('Queued 3 messages.').waitFor();

    expect(sent).toHaveLength(2);
    expect(sent[0]?.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(sent[1]?.id).toBe(sent[0]?.id);
    const campaigns =
      await harness.api.get<{ id: string; name: string; recipients: number }[]>('/gateway/v1/campaigns');
    const lost = campaigns.body.filter((campaign) => campaign.name === 'Lost answer');
    expect(lost).toEqual([expect.objectContaining({ id: sent[0]?.id, recipients: 3 })]);
    await harness.api.post(`/gateway/v1/campaigns/${sent[0]?.id}/cancel`, {});
    await harness.api.post('/gateway/v1/sending', { paused: false });
    await page.close();
  });

  it('fills {name} from columns pasted from a spreadsheet, names a bad line and sends the rest when told', async () => {
    const page = await signedInPage();
    await page.goto(`${harness.url}/ui/#/campaigns`);
    await page.getByRole('heading', { level: 1, name: 'Bulk send' }).waitFor();
    await page.getByLabel('Campaign name').fill('Pasted names');
    await page.getByLabel('Message').fill('Hello {name|there}, we are open');
    // What a copied two-column range puts on the clipboard: cells split by TAB, rows by CR LF.
    await page
      .getByLabel('Numbers')
      .fill('Anna Schmidt\t0170 4000001\r\n0170 4000002\tBen\r\nCara\t12\r\n0170 4000003');
    await page.getByRole('button', { name: 'Preview' }).click();
    const problems = page.getByRole('table', { name: 'Recipients with problems' });
    await expect(problems.getByRole('row').nth(1).textContent()).resolves.toBe(
      'Numbers line 312 is too short for a number in DE',
    );
    await expect(page.getByRole('button', { name: 'Send to 3 recipients' }).isDisabled()).resolves.toBe(true);
    await page.getByText('Send waits until the problems below are fixed, or skipped.').waitFor();
    await page.getByLabel('Skip the 1 recipient with a problem and send to the other 3 recipients').check();
    await page.getByRole('button', { name: 'Send to 3 recipients' }).click();
    await page.getByText('Queued 3 messages.').waitFor();
    await pollUntil(
      () =>
        [...harness.acceptedBy(0), ...harness.acceptedBy(1)].filter((pdu) =>
          pdu.decoded.text?.endsWith('we are open'),
        ).length === 3,
      { limitMs: 60_000, what: 'the three pasted recipients to be sent' },
    );
    const textTo = new Map(
      [...harness.acceptedBy(0), ...harness.acceptedBy(1)]
        .filter((pdu) => pdu.decoded.text?.endsWith('we are open'))
        .map((pdu) => [pdu.decoded.recipient.number, pdu.decoded.text]),
    );
    expect(textTo.get('+491704000001')).toBe('Hello Anna Schmidt, we are open');
    expect(textTo.get('+491704000002')).toBe('Hello Ben, we are open');
    expect(textTo.get('+491704000003')).toBe('Hello there, we are open');
    expect(textTo.size).toBe(3);
    await page.close();
  });
});
