/**
 * One app over every way in (issue 46): the same app, logged in over HTTP, SMTP (Debian's
 * swaks) and SMPP (Debian's Net::SMPP), is held to one quota counted per SMS, to its one
 * allowed modem, sees its own messages as its own, and over SMPP gets only its own receipts and
 * the incoming SMS its rule hears. The gateway runs whole, with two simulated modems on ptys.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../bench/support/gatewayProcess.js';
import { SmppStatus } from '../../server/doors/smpp/smppStatus.js';
import { type ApiMessage, waitForReadyModems, waitForState } from '../integration/support/apiReads.js';
import { type PerlClient, runPerlClient } from '../smpp/support/perlClient.js';
import {
  type GatewayHarness,
  harnessPassword,
  harnessUser,
  startGatewayHarness,
} from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { portAnswers } from '../support/portAnswers.js';
import { sendWithSwaks, serverReplies } from '../support/swaks.js';

const shopPassword = 'shop-secret-1';
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const shopAuthorization = basic('shop', shopPassword);

/** `key=value` pairs of a line the Perl client printed. */
function fieldsOf(line: string): Record<string, string> {
  return Object.fromEntries(
    [...line.matchAll(/(\w+)=(\S*)/g)].map((match) => [match[1] ?? '', match[2] ?? '']),
  );
}

const hexOf = (text: string) => Buffer.from(text, 'latin1').toString('hex');

describe('one app over HTTP, SMTP and SMPP', () => {
  let harness: GatewayHarness;
  let smtpPort: number;
  let smppPort: number;
  let allowed: string;
  let forbidden: string;
  const clients: PerlClient[] = [];

  const session = async (systemId: string, password: string, mode = 'transceiver') => {
    const client = runPerlClient('session.pl', [String(smppPort), systemId, password, mode]);
    clients.push(client);
    await client.waitForLine(/^(bound|bind_failed)/, `the bind of ${systemId}`);
    return client;
  };
  const asShop = <Body>(method: string, path: string, json?: unknown) =>
    harness.api.request<Body>(method, path, {
      headers: { Authorization: shopAuthorization },
      ...(json === undefined ? {} : { json }),
    });

  beforeAll(async () => {
    harness = await startGatewayHarness({
      ptyModems: 2,
      ptyModemOptions: () => ({ statusReportDelayMs: 200 }),
    });
    await waitForReadyModems(harness.api, 2);
    [smtpPort, smppPort] = [await freeLoopbackPort(), await freeLoopbackPort()];
    const enabled = await harness.api.patch('/settings', {
      desk: { default_country: 'GB' },
      smtp: { enabled: true, port: smtpPort },
      smpp: { enabled: true, port: smppPort },
    });
    expect(enabled.status).toBe(200);
    await pollUntil(async () => (await portAnswers(smtpPort)) && (await portAnswers(smppPort)), {
      what: 'the SMTP and SMPP listeners',
      limitMs: 30_000,
    });
    const devices = (await harness.api.get<{ id: string }[]>('/devices')).body.map((device) => device.id);
    [allowed = '', forbidden = ''] = devices.sort();
    const added = await harness.api.post('/gateway/v1/apps', {
      name: 'shop',
      password: shopPassword,
      quota: { perDay: 6, resetAt: '00:00', timeZone: 'UTC' },
      incoming: { mode: 'none' },
      allowedDeviceIds: [allowed],
    });
    expect(added.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.kill();
    await harness?.close();
  });

  it('holds the app to one quota of SMS and one modem, and shows it its own messages, whichever way in', async () => {
    // HTTP: one message to two numbers is two of the six SMS.
    const overHttp = await asShop<ApiMessage>('POST', '/messages', {
      textMessage: { text: 'over HTTP' },
      phoneNumbers: ['+447700900501', '+447700900502'],
    });
    expect(overHttp.status).toBe(202);
    // SMTP: one mail to two numbers, two more.
    const overSmtp = await sendWithSwaks({
      port: smtpPort,
      auth: { user: 'shop', password: shopPassword },
      to: ['+447700900503@sms', '+447700900504@sms'],
      data: 'Subject: over SMTP\r\nMessage-ID: <shop-1@example.com>\r\n\r\nover SMTP',
    });
    expect(overSmtp.exitCode, overSmtp.transcript).toBe(0);
    const mailId = /queued as (\S+)/.exec(serverReplies(overSmtp.transcript).join('\n'))?.[1] ?? '';
    // SMPP: two submits, the last two.
    const client = await session('shop', shopPassword);
    client.send(`submit 447700900505 ${hexOf('over SMPP 1')} 1`);
    client.send(`submit 447700900506 ${hexOf('over SMPP 2')} 1`);
    const submitted = (await client.waitForLines(/^submit_sm_resp/, 2, 'two submits')).map(fieldsOf);
    expect(submitted.map((response) => response.status)).toEqual(['0', '0']);

    // The seventh SMS is refused over every way in.
    client.send(`submit 447700900507 ${hexOf('one too many')} 0`);
    const throttled = fieldsOf(
      (await client.waitForLines(/^submit_sm_resp/, 3, 'the third submit'))[2] ?? '',
    );
    expect(Number(throttled.status)).toBe(SmppStatus.ESME_RTHROTTLED);
    const mailRefused = await sendWithSwaks({
      port: smtpPort,
      auth: { user: 'shop', password: shopPassword },
      to: ['+447700900507@sms'],
      data: 'Subject: too many\r\n\r\none too many',
    });
    expect(serverReplies(mailRefused.transcript).join('\n')).toMatch(/^452 .*quota/m);
    const httpRefused = await asShop('POST', '/messages', {
      textMessage: { text: 'one too many' },
      phoneNumbers: ['+447700900507'],
    });
    expect(httpRefused.status).toBe(429);

    // All four are the shop's: it lists and reads each, and each went through its one modem.
    const ids = [overHttp.body.id, mailId, ...submitted.map((response) => response.message_id ?? '')];
    const listed = await asShop<ApiMessage[]>('GET', '/messages?limit=100');
    expect(new Set(listed.body.map((message) => message.id))).toEqual(new Set(ids));
    for (const id of ids) {
      const sent = await waitForState(harness.api, `/messages/${id}`, 'Delivered');
      expect(sent.deviceId).toBe(allowed);
      expect((await asShop('GET', `/messages/${id}`)).status).toBe(200);
    }
    expect(forbidden).not.toBe(allowed);
    // Each names who sent it, and how (issue 50 item 6).
    const actors = await harness.api.post<Record<string, string>>('/gateway/v1/audit/actors', {
      subjects: ids,
    });
    expect(actors.body).toEqual({
      [overHttp.body.id]: 'shop',
      [mailId]: 'shop, by e-mail',
      [ids[2] ?? '']: 'shop, over SMPP',
      [ids[3] ?? '']: 'shop, over SMPP',
    });
    // The mail refused over the quota is in the log, with its reply and its login.
    const logs = await harness.api.get<{ message: string; context?: Record<string, string> }[]>(
      '/logs?module=smtp&priority=WARN',
    );
    const refusal = logs.body.find((entry) => entry.message === 'mail refused');
    expect(refusal?.context).toMatchObject({ login: 'shop', to: '+447700900507@sms' });
    expect(refusal?.context?.reply).toMatch(/^452 .*quota/);
  }, 300_000);

  it('gives an SMPP login only its own receipts and messages, whatever system_id it claims', async () => {
    const owner = await session(harnessUser, harnessPassword);
    // The shop binds with an API token under the owner's system_id: it is still the shop.
    const token = (
      await asShop<{ accessToken: string }>('POST', '/auth/token', { scopes: ['messages:send'] })
    ).body.accessToken;
    const impostor = await session(harnessUser, token, 'receiver');
    expect(impostor.lines).toContain('bound');

    owner.send(`submit 447700900601 ${hexOf('the owner writes')} 1`);
    const ownersId =
      fieldsOf(await owner.waitForLine(/^submit_sm_resp/, "the owner's submit")).message_id ?? '';
    const receipt = fieldsOf(await owner.waitForLine(/^deliver_sm esm_class=4 /, "the owner's receipt"));
    expect(receipt.receipted).toBe(ownersId);

    // The owner's message is not found for the shop's transmitter; the shop's own is.
    const shop = await session('shop', shopPassword, 'transmitter');
    shop.send(`query ${ownersId}`);
    shop.send(`cancel ${ownersId}`);
    const query = fieldsOf(await shop.waitForLine(/^query_sm_resp/, 'the query'));
    expect(Number(query.status)).toBe(SmppStatus.ESME_RQUERYFAIL);
    const cancel = fieldsOf(await shop.waitForLine(/^cancel_sm_resp/, 'the cancel'));
    expect(Number(cancel.status)).toBe(SmppStatus.ESME_RCANCELFAIL);

    // An incoming SMS reaches the owner, and never the shop, whose rule hears none.
    harness.ptyModem(0).injectIncoming({ sender: '+447700900999', text: 'Your bank code 998877' });
    await owner.waitForLine(/^deliver_sm esm_class=0 /, 'the incoming SMS');
    owner.send('unbind');
    await owner.waitForLine(/^unbound$/, "the owner's unbind");
    impostor.send('unbind');
    await impostor.waitForLine(/^unbound$/, "the shop's unbind");
    expect(impostor.lines.filter((line) => line.startsWith('deliver_sm'))).toEqual([]);
  }, 300_000);

  it('answers the right password over SMPP and SMTP after ten wrong ones over either', async () => {
    for (let guess = 0; guess < 5; guess++) {
      const refused = await session('shop', `guess-${guess}`);
      expect(refused.lines.join('\n')).toMatch(/^bind_failed status=14$/m);
      const mail = await sendWithSwaks({
        port: smtpPort,
        auth: { user: 'shop', password: `mail-guess-${guess}` },
        to: ['+447700900701@sms'],
        data: 'Subject: guess\r\n\r\nguess',
      });
      expect(serverReplies(mail.transcript).join('\n')).toMatch(/^535 /m);
    }
    const bound = await session('shop', shopPassword, 'transmitter');
    expect(bound.lines).toContain('bound');
    const mail = await sendWithSwaks({
      port: smtpPort,
      auth: { user: 'shop', password: shopPassword },
      to: ['+447700900701@sms'],
      data: 'Subject: right\r\n\r\nright',
      extra: ['--quit-after', 'AUTH'],
    });
    expect(serverReplies(mail.transcript).join('\n')).toMatch(/^235 /m);
  }, 120_000);
});
