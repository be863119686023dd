/**
 * The SMTP listener's limits (issue 46, RELIABILITY.md), through Debian's swaks against the
 * whole gateway: no single authenticated mail can run the heap out or stall the event loop,
 * and one login's Message-ID is not another's.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../bench/support/gatewayProcess.js';
import { MaxRecipients } from '../../server/contract/schemas/messageSchemas.js';
import { maxMailBytes } from '../../server/doors/smtp/smtpListener.js';
import type { ApiMessage } from '../integration/support/apiReads.js';
import {
  type GatewayHarness,
  harnessPassword,
  harnessUser,
  startGatewayHarness,
} from '../support/gatewayHarness.js';
import { healthDuring } from '../support/healthDuring.js';
import { pollUntil } from '../support/pollUntil.js';
import { portAnswers } from '../support/portAnswers.js';
import { sendWithSwaks, serverReplies } from '../support/swaks.js';

const owner = { user: harnessUser, password: harnessPassword };
const shop = { user: 'shop', password: 'shop-secret-1' };
/** The old listener froze for 56 s on the HTML mail below; an answer within this shows it does not. */
const healthBoundMs = 2_000;

describe('the SMTP listener limits', () => {
  let harness: GatewayHarness;
  let port: number;

  beforeAll(async () => {
    harness = await startGatewayHarness({ ptyModems: 1 });
    port = await freeLoopbackPort();
    const enabled = await harness.api.patch('/settings', {
      desk: { default_country: 'GB' },
      smtp: { enabled: true, port },
    });
    expect(enabled.status).toBe(200);
    expect(
      (await harness.api.post('/gateway/v1/apps', { name: shop.user, password: shop.password })).status,
    ).toBe(201);
    await pollUntil(() => portAnswers(port), { what: 'the SMTP listener', limitMs: 30_000 });
  }, 60_000);

  afterAll(async () => {
    await harness?.close();
  });

  it(`takes ${MaxRecipients} recipients of one mail and answers 452 to the next`, async () => {
    const recipients = Array.from(
      { length: MaxRecipients + 1 },
      (_unused, index) => `+4477009${String(index).padStart(5, '0')}@sms`,
    );
    const run = await sendWithSwaks({
      port,
      auth: owner,
      to: recipients,
      data: 'Subject: many\r\nMessage-ID: <many-1@example.com>\r\n\r\nto many',
    });
    const replies = serverReplies(run.transcript);
    expect(replies.filter((reply) => reply.startsWith('452 '))).toHaveLength(1);
    const id = /queued as (\S+)/.exec(replies.join('\n'))?.[1] ?? '';
    const stored = await harness.api.get<ApiMessage>(`/messages/${id}`);
    expect(stored.body.recipients).toHaveLength(MaxRecipients);
  }, 120_000);

  it('refuses an HTML-only mail too large to read as text, and the API answers all the while', async () => {
    const rows = Array.from({ length: 200_000 }, (_unused, index) => `<tr><td>${index % 10}</td></tr>`).join(
      '',
    );
    const html = `<html><body><table>${rows}</table></body></html>`;
    expect(html.length).toBeGreaterThan(3_800_000);
    const { result, longestMs } = await healthDuring(
      harness.url,
      sendWithSwaks({
        port,
        auth: owner,
        to: ['+447700900801@sms'],
        data: `Subject: table\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${html}`,
        extra: ['--suppress-data'],
      }),
    );
    const replies = serverReplies(result.transcript).join('\n');
    expect(replies).toMatch(/^550 .*HTML could not be read as text/m);
    expect(longestMs).toBeLessThan(healthBoundMs);
  }, 120_000);

  it(`refuses a mail over ${maxMailBytes} bytes with 552`, async () => {
    const body = `${'0123456789 '.repeat(8)}\r\n`.repeat(Math.ceil((maxMailBytes + 1) / 90));
    const run = await sendWithSwaks({
      port,
      auth: owner,
      to: ['+447700900802@sms'],
      data: `Subject: large\r\n\r\n${body}`,
      extra: ['--suppress-data'],
    });
    expect(serverReplies(run.transcript).join('\n')).toMatch(/^552 .*larger than/m);
  }, 120_000);

  it("keeps one login's Message-ID apart from another's", async () => {
    const data = 'Subject: same id\r\nMessage-ID: <same-1@example.com>\r\n\r\nthe same id';
    const first = await sendWithSwaks({ port, auth: owner, to: ['+447700900803@sms'], data });
    const second = await sendWithSwaks({ port, auth: shop, to: ['+447700900803@sms'], data });
    const ids = [first, second].map(
      (run) => /^250 .*queued as (\S+)/m.exec(serverReplies(run.transcript).join('\n'))?.[1],
    );
    expect(serverReplies(second.transcript).join('\n')).not.toContain('already queued');
    expect(ids[0]).toBeDefined();
    expect(ids[1]).toBeDefined();
    expect(ids[0]).not.toBe(ids[1]);
  }, 60_000);
});
