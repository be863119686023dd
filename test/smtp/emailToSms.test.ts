/**
 * E-mail → SMS acceptance (issue 42): Debian's swaks, a real SMTP client, sends to the gateway's
 * SMTP listener on loopback; the mail arrives as an SMS at a simulated modem behind a pty,
 * opened by the real serialport binding.
 */

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../bench/support/gatewayProcess.js';
import type { Caller } from '../../server/contract/domain/caller.js';
import { messageIdOfMail } from '../../server/doors/smtp/smtpListener.js';
import { ownerId } from '../../server/services/auth/staffDirectory.js';
import { type ApiMessage, waitForState } from '../integration/support/apiReads.js';
import {
  type GatewayHarness,
  harnessPassword,
  harnessUser,
  startGatewayHarness,
} from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { portAnswers } from '../support/portAnswers.js';
import { sendWithSwaks, serverReplies } from '../support/swaks.js';
import { createTestCertificates } from '../support/webhookReceiver.js';

/** The harness logs in as the owner: its mails are the owner's. */
const owner: Caller = { kind: 'person', id: ownerId };

const auth = { user: harnessUser, password: harnessPassword };
const maxPendingMessages = 20;

function mail(headers: Record<string, string>, body: string): string {
  const lines = Object.entries({
    From: 'booking@example.com',
    Date: new Date().toUTCString(),
    ...headers,
  }).map(([name, value]) => `${name}: ${value}`);
  return `${lines.join('\n')}\n\n${body}\n`;
}

function textsTo(harness: GatewayHarness, phoneNumber: string): string[] {
  return harness
    .acceptedBy(0)
    .filter((pdu) => pdu.decoded.recipient.number === phoneNumber)
    .map((pdu) => pdu.decoded.text ?? '');
}

describe('e-mail to SMS through the SMTP listener', () => {
  let harness: GatewayHarness;
  let port: number;

  beforeAll(async () => {
    harness = await startGatewayHarness({ ptyModems: 1, options: { maxPendingMessages } });
    port = await freeLoopbackPort();
    const enabled = await harness.api.patch('/settings', {
      desk: { default_country: 'GB' },
      smtp: { enabled: true, port, max_parts: 2 },
    });
    expect(enabled.status).toBe(200);
    await pollUntil(() => portAnswers(port), { what: 'the SMTP listener', limitMs: 30_000 });
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('is off by default and listens on loopback only once enabled', async () => {
    const settings = await harness.api.get<{ smtp: { allow_lan: boolean } }>('/settings');
    expect(settings.body.smtp.allow_lan).toBe(false);
    const smtp = await harness.api.get<{ smtp: { state: string; host: string } }>('/gateway/v1/bridges');
    expect(smtp.body.smtp).toMatchObject({ state: 'listening', host: '127.0.0.1', port });
  });

  it('answers 250 with the message id only once the message is stored, and the SMS reaches the modem', async () => {
    const run = await sendWithSwaks({
      port,
      auth,
      to: ['07700900301@sms.example'],
      data: mail(
        { To: '07700900301@sms.example', Subject: 'Booking', 'Message-ID': '<booking-1@example.com>' },
        'Your table for 2 is booked for 19:30.\n-- \nThe Booking System\nhttps://example.com',
      ),
    });
    expect(run.exitCode, run.transcript).toBe(0);
    const id = messageIdOfMail('<booking-1@example.com>', owner);
    expect(serverReplies(run.transcript)).toContain(`250 2.6.0 queued as ${id}`);
    // The 250 came after the commit: the message is there the moment the client has its answer.
    const stored = await harness.api.get<ApiMessage>(`/messages/${id}`);
    expect(stored.status).toBe(200);
    expect(stored.body.recipients.map((recipient) => recipient.phoneNumber)).toEqual(['+447700900301']);
    await waitForState(harness.api, `/messages/${id}`, 'Delivered');
    expect(textsTo(harness, '+447700900301')).toEqual(['Your table for 2 is booked for 19:30.']);
  });

  it('sends one mail to several recipients, with AUTH LOGIN, and keeps UTF-8 text whole', async () => {
    const run = await sendWithSwaks({
      port,
      auth: { ...auth, method: 'LOGIN' },
      to: ['+447700900302@a.example', '00447700900303@b.example'],
      data: mail(
        {
          To: 'staff@example.com',
          Subject: 'Schichtplan',
          'Message-ID': '<shift-7@example.com>',
          'MIME-Version': '1.0',
          'Content-Type': 'text/plain; charset=utf-8',
          'Content-Transfer-Encoding': '8bit',
        },
        'Grüße: Schicht ab 06:00 — bitte bestätigen.',
      ),
    });
    expect(run.exitCode, run.transcript).toBe(0);
    await waitForState(
      harness.api,
      `/messages/${messageIdOfMail('<shift-7@example.com>', owner)}`,
      'Delivered',
    );
    expect(textsTo(harness, '+447700900302')).toEqual(['Grüße: Schicht ab 06:00 — bitte bestätigen.']);
    expect(textsTo(harness, '+447700900303')).toEqual(['Grüße: Schicht ab 06:00 — bitte bestätigen.']);
  });

  it('turns an HTML-only mail into text and cuts a quoted reply', async () => {
    const run = await sendWithSwaks({
      port,
      auth,
      to: ['+447700900304@sms'],
      data: mail(
        {
          Subject: 'Re: reminder',
          'Message-ID': '<html-1@example.com>',
          'MIME-Version': '1.0',
          'Content-Type': 'text/html; charset=utf-8',
        },
        '<html><body><p>See you <b>tomorrow</b>.</p><p>On Monday, Ann wrote:</p><blockquote>&gt; are we on?</blockquote></body></html>',
      ),
    });
    expect(run.exitCode, run.transcript).toBe(0);
    await waitForState(
      harness.api,
      `/messages/${messageIdOfMail('<html-1@example.com>', owner)}`,
      'Delivered',
    );
    expect(textsTo(harness, '+447700900304')).toEqual(['See you tomorrow.']);
  });

  it('takes a mail sent again with the same Message-ID once', async () => {
    const data = mail({ Subject: 'once', 'Message-ID': '<retry-1@example.com>' }, 'Only once, please.');
    const first = await sendWithSwaks({ port, auth, to: ['+447700900305@sms'], data });
    const second = await sendWithSwaks({ port, auth, to: ['+447700900305@sms'], data });
    const id = messageIdOfMail('<retry-1@example.com>', owner);
    expect(serverReplies(first.transcript)).toContain(`250 2.6.0 queued as ${id}`);
    expect(serverReplies(second.transcript)).toContain(`250 2.6.0 already queued as ${id}`);
    await waitForState(harness.api, `/messages/${id}`, 'Delivered');
    expect(textsTo(harness, '+447700900305')).toEqual(['Only once, please.']);
  });

  it('accepts an API token holding messages:send as the password, and refuses one without it', async () => {
    const issue = async (scopes: string[]) =>
      (await harness.api.post<{ accessToken: string }>('/auth/token', { scopes })).body.accessToken;
    const sender = await issue(['messages:send']);
    const reader = await issue(['messages:read']);
    const data = mail({ Subject: 'token', 'Message-ID': '<token-1@example.com>' }, 'Sent with a token.');
    const refused = await sendWithSwaks({
      port,
      auth: { user: 'crm', password: reader },
      to: ['+447700900306@sms'],
      data,
    });
    expect(refused.exitCode).toBe(28);
    expect(serverReplies(refused.transcript).join('\n')).toMatch(/^535 5\.7\.8 .*messages:send/m);
    const taken = await sendWithSwaks({
      port,
      auth: { user: 'crm', password: sender },
      to: ['+447700900306@sms'],
      data,
    });
    expect(taken.exitCode, taken.transcript).toBe(0);
  });

  it('refuses a mail without AUTH, and wrong credentials, with 530 and 535', async () => {
    const data = mail({ Subject: 'x' }, 'no login');
    const anonymous = await sendWithSwaks({ port, to: ['+447700900307@sms'], data });
    expect(anonymous.exitCode).not.toBe(0);
    expect(serverReplies(anonymous.transcript).join('\n')).toMatch(/^530 /m);
    const wrong = await sendWithSwaks({
      port,
      auth: { user: harnessUser, password: 'wrong-password' },
      to: ['+447700900307@sms'],
      data,
    });
    expect(wrong.exitCode).toBe(28);
    expect(serverReplies(wrong.transcript).join('\n')).toMatch(/^535 /m);
  });

  it('refuses an unreadable number with 553 and an opted-out one with 550, naming the reason', async () => {
    const optOut = await harness.api.post('/gateway/v1/opt-outs', { phoneNumber: '+447700900308' });
    expect(optOut.status, optOut.text).toBeLessThan(300);
    const data = mail({ Subject: 'x' }, 'hello');
    const unreadable = await sendWithSwaks({ port, auth, to: ['frontdesk@sms.example'], data });
    expect(unreadable.exitCode).toBe(24);
    expect(serverReplies(unreadable.transcript).join('\n')).toMatch(
      /^553 5\.1\.3 frontdesk@sms\.example: the part before @ must be a phone number/m,
    );
    const optedOut = await sendWithSwaks({ port, auth, to: ['07700900308@sms.example'], data });
    expect(optedOut.exitCode).toBe(24);
    expect(serverReplies(optedOut.transcript).join('\n')).toMatch(
      /^550 .*\+447700900308 is on the opt-out list/m,
    );
  });

  it('refuses a text over the configured number of parts with 552 and stores nothing', async () => {
    const before = (await harness.api.get<ApiMessage[]>('/messages?limit=500')).body.length;
    const run = await sendWithSwaks({
      port,
      auth,
      to: ['+447700900309@sms'],
      data: mail({ Subject: 'long' }, 'x'.repeat(3 * 153)),
    });
    expect(run.exitCode, run.transcript).toBe(26);
    expect(serverReplies(run.transcript).join('\n')).toMatch(/^552 .*needs 3 SMS parts; at most 2/m);
    expect((await harness.api.get<ApiMessage[]>('/messages?limit=500')).body.length).toBe(before);
  });

  it('offers STARTTLS with the configured certificate, and then takes AUTH only over TLS', async () => {
    const { key, cert } = await createTestCertificates();
    const keyFile = join(harness.dataDir, 'smtp-key.pem');
    const certFile = join(harness.dataDir, 'smtp-cert.pem');
    await writeFile(keyFile, key);
    await writeFile(certFile, cert);
    const changed = await harness.api.patch('/settings', {
      smtp: { tls_cert_file: certFile, tls_key_file: keyFile },
    });
    expect(changed.status).toBe(200);
    const data = mail({ Subject: 'tls', 'Message-ID': '<tls-1@example.com>' }, 'Over TLS.');
    // The listener restarts with the certificate: until then STARTTLS is not offered.
    await pollUntil(
      async () =>
        (
          await sendWithSwaks({
            port,
            auth,
            to: ['+447700900312@sms'],
            data,
            extra: ['--tls', '--quit-after', 'AUTH'],
          })
        ).exitCode === 0,
      { what: 'STARTTLS', limitMs: 30_000, intervalMs: 200 },
    );
    const overTls = await sendWithSwaks({ port, auth, to: ['+447700900312@sms'], data, extra: ['--tls'] });
    expect(overTls.exitCode, overTls.transcript).toBe(0);
    expect(overTls.transcript).toMatch(/TLS started/);
    const inClear = await sendWithSwaks({ port, auth, to: ['+447700900312@sms'], data });
    expect(inClear.exitCode).toBe(28);
    await waitForState(
      harness.api,
      `/messages/${messageIdOfMail('<tls-1@example.com>', owner)}`,
      'Delivered',
    );
  });

  it('answers 452, a temporary refusal, while the queue is full', async () => {
    await harness.gateway.setSendingPaused(true);
    let status = 202;
    for (let index = 0; status === 202 && index <= maxPendingMessages; index++) {
      status = (
        await harness.api.post('/messages', {
          textMessage: { text: `fill ${index}` },
          phoneNumbers: ['+447700900310'],
        })
      ).status;
    }
    expect(status).toBe(503);
    const run = await sendWithSwaks({
      port,
      auth,
      to: ['+447700900311@sms'],
      data: mail({ Subject: 'full' }, 'later'),
      // The case before gave the listener a certificate: AUTH now needs STARTTLS.
      extra: ['--tls'],
    });
    expect(run.exitCode, run.transcript).toBe(26);
    expect(serverReplies(run.transcript).join('\n')).toMatch(/^452 .*queue is full/m);
  });
});
