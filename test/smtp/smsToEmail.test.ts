/**
 * SMS → e-mail (issue 42): an incoming SMS at a simulated modem on a pty arrives as a mail at a
 * local SMTP sink (Nodemailer's smtp-server in this process, the relay's stand-in), kept and
 * retried while the relay refuses; a reply to that mail, sent through the gateway's SMTP
 * listener with swaks, goes back as an SMS to the sender.
 */

import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../bench/support/gatewayProcess.js';
import {
  type GatewayHarness,
  harnessPassword,
  harnessUser,
  startGatewayHarness,
} from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { portAnswers } from '../support/portAnswers.js';
import { sendWithSwaks } from '../support/swaks.js';

interface Sink {
  port: number;
  mails: ParsedMail[];
  /** Refuse the next `count` mails with 451 (RFC 5321 §4.2.2: try again later). */
  refuseNext(count: number): void;
  refused: number;
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  const mails: ParsedMail[] = [];
  let toRefuse = 0;
  const state = { refused: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        if (toRefuse > 0) {
          toRefuse--;
          state.refused++;
          return callback(Object.assign(new Error('mailbox busy, try later'), { responseCode: 451 }));
        }
        mails.push(mail);
        callback();
      }, callback);
    },
  });
  const port = await freeLoopbackPort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    mails,
    refuseNext: (count) => {
      toRefuse = count;
    },
    get refused() {
      return state.refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('SMS to e-mail through an SMTP relay', () => {
  let harness: GatewayHarness;
  let sink: Sink;
  let smtpPort: number;

  beforeAll(async () => {
    sink = await startSink();
    harness = await startGatewayHarness({ ptyModems: 1 });
    smtpPort = await freeLoopbackPort();
    const enabled = await harness.api.patch('/settings', {
      desk: { default_country: 'GB' },
      smtp: { enabled: true, port: smtpPort },
      email_forward: {
        enabled: true,
        relay_host: '127.0.0.1',
        relay_port: sink.port,
        from: 'gateway@example.com',
        to: 'office@example.com, owner@example.com',
        forward_failures: true,
      },
    });
    expect(enabled.status, enabled.text).toBe(200);
    await pollUntil(() => portAnswers(smtpPort), { what: 'the SMTP listener', limitMs: 30_000 });
  });

  afterAll(async () => {
    await harness?.close();
    await sink?.close();
  });

  it('refuses to turn forwarding on without a relay, naming the field', async () => {
    const response = await harness.api.patch('/settings', { email_forward: { relay_host: null } });
    expect(response.status).toBe(400);
    expect(response.text).toContain('email_forward.relay_host');
  });

  it('forwards an incoming SMS as a mail, retried while the relay refuses, and a reply goes back as an SMS', async () => {
    sink.refuseNext(1);
    harness.ptyModem(0).injectIncoming({ sender: '+447700900777', text: 'Is my table still free at 8?' });
    await pollUntil(() => sink.mails.some((mail) => mail.subject === 'SMS from +447700900777'), {
      what: 'the forwarded mail',
      limitMs: 60_000,
    });
    expect(sink.refused).toBe(1);
    const forwarded = sink.mails.find((mail) => mail.subject === 'SMS from +447700900777');
    expect(forwarded?.text).toMatch(/^Is my table still free at 8\?\n/);
    expect(forwarded?.replyTo?.text).toBe('+447700900777@sms.gateway');
    expect(forwarded?.to && !Array.isArray(forwarded.to) ? forwarded.to.text : '').toBe(
      'office@example.com, owner@example.com',
    );

    // The reply a mail client writes: the answer above the quoted original.
    const reply = await sendWithSwaks({
      port: smtpPort,
      auth: { user: harnessUser, password: harnessPassword },
      to: ['+447700900777@sms.gateway'],
      data: [
        'From: office@example.com',
        'To: +447700900777@sms.gateway',
        'Subject: Re: SMS from +447700900777',
        `In-Reply-To: ${forwarded?.messageId ?? ''}`,
        'Message-ID: <reply-1@example.com>',
        '',
        'Yes, it is. See you at 8!',
        '',
        'On Fri, 27 Nov 2026, gateway@example.com wrote:',
        '> Is my table still free at 8?',
        '',
      ].join('\n'),
    });
    expect(reply.exitCode, reply.transcript).toBe(0);
    await pollUntil(
      () =>
        harness
          .acceptedBy(0)
          .some(
            (pdu) =>
              pdu.decoded.recipient.number === '+447700900777' &&
              pdu.decoded.text === 'Yes, it is. See you at 8!',
          ),
      { what: 'the reply as an SMS', limitMs: 30_000 },
    );
  });

  it('forwards a failed message when asked to', async () => {
    harness.ptyModem(0).failSends(500, 1);
    const sent = await harness.api.post<{ id: string }>('/messages', {
      textMessage: { text: 'will fail' },
      phoneNumbers: ['+447700900778'],
    });
    expect(sent.status).toBe(202);
    await pollUntil(
      () => sink.mails.some((mail) => mail.subject === `SMS ${sent.body.id} could not be sent`),
      {
        what: 'the failure mail',
        limitMs: 30_000,
      },
    );
    const mail = sink.mails.find(
      (candidate) => candidate.subject === `SMS ${sent.body.id} could not be sent`,
    );
    expect(mail?.text).toMatch(/\+447700900778: Failed \(.*500/);
  });

  it('tests each way from the settings: the relay takes a mail, the listener greets, the SMPP server is off', async () => {
    const email = await harness.api.post<{ ok: boolean; detail: string }>(
      '/gateway/v1/bridges/email/test',
      {},
    );
    expect(email.body.ok, email.body.detail).toBe(true);
    expect(sink.mails.some((mail) => mail.subject === 'Desktop SMS Gateway: test mail')).toBe(true);
    const smtp = await harness.api.post<{ ok: boolean; detail: string }>('/gateway/v1/bridges/smtp/test', {});
    expect(smtp.body).toMatchObject({ ok: true });
    expect(smtp.body.detail).toMatch(/^220 /);
    const smpp = await harness.api.post<{ ok: boolean; detail: string }>('/gateway/v1/bridges/smpp/test', {});
    expect(smpp.body).toEqual({ ok: false, detail: 'the SMPP server is off' });
  });
});
