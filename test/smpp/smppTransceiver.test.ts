/**
 * SMPP acceptance (issue 42): Debian's Net::SMPP, a real SMPP 3.4 client, binds to the gateway
 * as transceiver, submits a 3-part UCS-2 message that reaches a simulated modem on a pty
 * intact, and receives its delivery receipt and an incoming SMS as deliver_sm.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../bench/support/gatewayProcess.js';
import { decodeGsm7 } from '../../server/contract/pdu/gsm7.js';
import type { ApiMessage } from '../integration/support/apiReads.js';
import {
  type GatewayHarness,
  harnessPassword,
  harnessUser,
  startGatewayHarness,
} from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { portAnswers } from '../support/portAnswers.js';
import { runPerlClient } from './support/perlClient.js';

// UCS-2 (TS 23.038 §6.2.3): 67 characters per concatenated part, so 150 need three parts.
const threePartText = 'Съешь же ещё этих мягких французских булок, да выпей чаю. '.repeat(3).slice(0, 150);

/** `key=value` pairs of a line the Perl client printed. */
function fieldsOf(line: string): Record<string, string> {
  return Object.fromEntries(
    [...line.matchAll(/(\w+)=(\S*)/g)].map((match) => [match[1] ?? '', match[2] ?? '']),
  );
}

describe('an SMPP transceiver (Net::SMPP) on the gateway', () => {
  let harness: GatewayHarness;
  let port: number;

  beforeAll(async () => {
    harness = await startGatewayHarness({
      ptyModems: 1,
      ptyModemOptions: () => ({ statusReportDelayMs: 200 }),
    });
    port = await freeLoopbackPort();
    const enabled = await harness.api.patch('/settings', {
      desk: { default_country: 'GB' },
      smpp: { enabled: true, port },
    });
    expect(enabled.status).toBe(200);
    await pollUntil(() => portAnswers(port), { what: 'the SMPP server', limitMs: 30_000 });
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('submits a 3-part UCS-2 message that reaches the modem intact, and gets its receipt and an MO message', async () => {
    const hex = Buffer.from(threePartText, 'utf16le').swap16().toString('hex');
    const client = runPerlClient('transceiver.pl', [
      String(port),
      harnessUser,
      harnessPassword,
      '447700900401',
      hex,
      '2',
    ]);
    try {
      await client.waitForLine(/^submitted$/, 'the three submits');
      const responses = client.lines.filter((line) => line.startsWith('submit_sm_resp')).map(fieldsOf);
      expect(responses.map((response) => response.status)).toEqual(['0', '0', '0']);
      const messageId = responses[0]?.message_id ?? '';
      expect(new Set(responses.map((response) => response.message_id))).toEqual(new Set([messageId]));

      // Acknowledged, so stored: the last part's response came after the message's commit.
      const stored = await harness.api.get<ApiMessage>(`/messages/${messageId}`);
      expect(stored.status).toBe(200);
      // The receipt says DELIVRD only after the modem took every part and the report came.
      const receiptLine = await client.waitForLine(/^deliver_sm esm_class=4 /, 'the delivery receipt');
      const parts = harness
        .acceptedBy(0)
        .filter((pdu) => pdu.decoded.recipient.number === '+447700900401')
        .map((pdu) => pdu.decoded);
      expect(parts).toHaveLength(3);
      expect(parts.map((part) => part.encoding)).toEqual(['ucs2', 'ucs2', 'ucs2']);
      expect(parts.map((part) => part.text).join('')).toBe(threePartText);

      const receipt = fieldsOf(receiptLine);
      expect(receipt).toMatchObject({ receipted: messageId, state: '2', source: '447700900401' });
      expect(Buffer.from(receipt.hex ?? '', 'hex').toString('latin1')).toMatch(
        new RegExp(
          `^id:${messageId} sub:001 dlvrd:001 submit date:\\d{10} done date:\\d{10} stat:DELIVRD err:000 text:\\?{5} `,
        ),
      );

      harness.ptyModem(0).injectIncoming({ sender: '+447700900999', text: 'Yes, 19:30 @ the bar' });
      const moLine = await client.waitForLine(/^deliver_sm esm_class=0 /, 'the incoming SMS');
      const mo = fieldsOf(moLine);
      expect(mo).toMatchObject({ data_coding: '0', source: '447700900999' });
      expect(decodeGsm7(Buffer.from(mo.hex ?? '', 'hex'))).toBe('Yes, 19:30 @ the bar');

      await client.waitForLine(/^unbound$/, 'the unbind');
      expect(await client.exited).toBe(0);
    } finally {
      client.kill();
    }
  }, 300_000);
});
