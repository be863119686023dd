/**
 * A burst over SMPP or e-mail goes out in the order it came (issue 47), though the queue sends
 * the newest first by default (LIFO): four submits from Net::SMPP's peer in the npm `smpp`
 * client and three mails from swaks, queued while sending is paused, reach the simulated modem
 * in their own order, after a message the HTTP API queued before them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../bench/support/gatewayProcess.js';
import { SmppStatus } from '../../server/doors/smpp/smppStatus.js';
import {
  type GatewayHarness,
  harnessPassword,
  harnessUser,
  startGatewayHarness,
} from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { portAnswers } from '../support/portAnswers.js';
import { sendWithSwaks } from '../support/swaks.js';
import { connectSmpp, type SmppClient } from './support/smppClient.js';

describe('a burst over SMPP or e-mail', () => {
  let harness: GatewayHarness;
  let smppPort: number;
  let smtpPort: number;
  let client: SmppClient | undefined;

  const sentTexts = (prefix: string) =>
    harness
      .acceptedBy(0)
      .map((pdu) => pdu.decoded.text ?? '')
      .filter((text) => text.startsWith(prefix));

  beforeAll(async () => {
    harness = await startGatewayHarness({ ptyModems: 1 });
    [smppPort, smtpPort] = [await freeLoopbackPort(), await freeLoopbackPort()];
    const enabled = await harness.api.patch('/settings', {
      desk: { default_country: 'GB' },
      messages: { processing_order: 'LIFO' },
      smpp: { enabled: true, port: smppPort },
      smtp: { enabled: true, port: smtpPort },
    });
    expect(enabled.status).toBe(200);
    await pollUntil(async () => (await portAnswers(smppPort)) && (await portAnswers(smtpPort)), {
      what: 'the listeners',
      limitMs: 30_000,
    });
  }, 60_000);

  afterAll(async () => {
    client?.destroy();
    await harness?.close();
  });

  it('goes out in the order it was submitted, whatever the queue order', async () => {
    await harness.gateway.setSendingPaused(true);
    const before = await harness.api.post('/messages', {
      textMessage: { text: 'api before the bursts' },
      phoneNumbers: ['+447700900700'],
    });
    expect(before.status).toBe(202);
    client = await connectSmpp(smppPort);
    expect(
      (await client.request('bind_transmitter', { system_id: harnessUser, password: harnessPassword }))
        ?.command_status,
    ).toBe(SmppStatus.ESME_ROK);
    for (let index = 1; index <= 4; index++) {
      const submitted = await client.request('submit_sm', {
        destination_addr: `44770090071${index}`,
        dest_addr_ton: 1,
        short_message: Buffer.from(`smpp ${index}`, 'ascii'),
      });
      expect(submitted?.command_status).toBe(0);
    }
    for (let index = 1; index <= 3; index++) {
      const mail = await sendWithSwaks({
        port: smtpPort,
        auth: { user: harnessUser, password: harnessPassword },
        to: [`+44770090072${index}@sms`],
        data: `Subject: order\r\n\r\nmail ${index}`,
      });
      expect(mail.exitCode, mail.transcript).toBe(0);
    }
    await harness.gateway.setSendingPaused(false);
    await pollUntil(() => sentTexts('smpp').length === 4 && sentTexts('mail').length === 3, {
      what: 'both bursts sent',
      limitMs: 60_000,
    });
    expect(sentTexts('smpp')).toEqual(['smpp 1', 'smpp 2', 'smpp 3', 'smpp 4']);
    expect(sentTexts('mail')).toEqual(['mail 1', 'mail 2', 'mail 3']);
  }, 120_000);
});
