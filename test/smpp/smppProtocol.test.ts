/**
 * The SMPP server's session rules and submit options (SMPP 3.4 §4), driven by the `smpp` npm
 * package's client against the real gateway with a simulated modem on a pty.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../bench/support/gatewayProcess.js';
import { ourSystemId } from '../../server/doors/smpp/smppSession.js';
import { SmppStatus } from '../../server/doors/smpp/smppStatus.js';
import { type ApiMessage, waitForState } from '../integration/support/apiReads.js';
import {
  type GatewayHarness,
  harnessPassword,
  harnessUser,
  startGatewayHarness,
} from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { portAnswers } from '../support/portAnswers.js';
import { connectSmpp, type SmppClient } from './support/smppClient.js';

const maxPendingMessages = 5;
const login = { system_id: harnessUser, password: harnessPassword };

describe('the SMPP server', () => {
  let harness: GatewayHarness;
  let port: number;
  const clients: SmppClient[] = [];

  const bound = async (command = 'bind_transceiver', credentials = login): Promise<SmppClient> => {
    const client = await connectSmpp(port);
    clients.push(client);
    const response = await client.request(command, credentials);
    expect(response?.command_status).toBe(SmppStatus.ESME_ROK);
    return client;
  };
  const textsTo = (phoneNumber: string) =>
    harness
      .acceptedBy(0)
      .filter((pdu) => pdu.decoded.recipient.number === phoneNumber)
      .map((pdu) => pdu.decoded.text ?? '');

  beforeAll(async () => {
    harness = await startGatewayHarness({
      ptyModems: 1,
      ptyModemOptions: () => ({ statusReportDelayMs: 200 }),
      options: { maxPendingMessages },
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
    for (const client of clients) client.destroy();
    await harness?.close();
  });

  it('refuses a wrong password with ESME_RINVPASWD and a token without messages:send with ESME_RBINDFAIL', async () => {
    const client = await connectSmpp(port);
    clients.push(client);
    const wrong = await client.request('bind_transmitter', { system_id: harnessUser, password: 'wrong' });
    expect(wrong?.command_status).toBe(SmppStatus.ESME_RINVPASWD);
    const token = (
      await harness.api.post<{ accessToken: string }>('/auth/token', { scopes: ['messages:read'] })
    ).body.accessToken;
    const reader = await client.request('bind_transmitter', { system_id: 'crm', password: token });
    expect(reader?.command_status).toBe(SmppStatus.ESME_RBINDFAIL);
    const sender = (
      await harness.api.post<{ accessToken: string }>('/auth/token', { scopes: ['messages:send'] })
    ).body.accessToken;
    const taken = await client.request('bind_transmitter', { system_id: 'crm', password: sender });
    expect(taken?.command_status).toBe(SmppStatus.ESME_ROK);
    // §4.1.2: at most 15 characters and the NUL, which Kannel's 15-character buffer holds.
    expect(taken?.system_id).toBe(ourSystemId);
    expect(ourSystemId.length).toBeLessThanOrEqual(15);
  });

  it('answers submit_sm before a bind with ESME_RINVBNDSTS, a second bind with ESME_RALYBND, and enquire_link', async () => {
    const client = await connectSmpp(port);
    clients.push(client);
    const early = await client.request('submit_sm', { destination_addr: '447700900501', short_message: 'x' });
    expect(early?.command_status).toBe(SmppStatus.ESME_RINVBNDSTS);
    expect((await client.request('enquire_link'))?.command_status).toBe(SmppStatus.ESME_ROK);
    expect((await client.request('bind_receiver', login))?.command_status).toBe(SmppStatus.ESME_ROK);
    expect((await client.request('bind_transmitter', login))?.command_status).toBe(SmppStatus.ESME_RALYBND);
    // §2.3: a receiver may not submit.
    const asReceiver = await client.request('submit_sm', {
      destination_addr: '447700900501',
      short_message: 'x',
    });
    expect(asReceiver?.command_status).toBe(SmppStatus.ESME_RINVBNDSTS);
  });

  it('answers an unknown command with generic_nack ESME_RINVCMDID and a bad length by closing after one', async () => {
    const client = await connectSmpp(port);
    clients.push(client);
    // §3.2 header: length 16, command_id 0x000000FF (none), status 0, sequence 77.
    client.writeRaw(Buffer.from('00000010000000ff000000000000004d', 'hex'));
    await pollUntil(() => client.nacks.length === 1, { what: 'the generic_nack' });
    expect(client.nacks[0]).toMatchObject({ command_status: SmppStatus.ESME_RINVCMDID, sequence_number: 77 });
    client.writeRaw(Buffer.from('00000008000000150000000000000001', 'hex'));
    await client.closed;
    expect(client.nacks[1]?.command_status).toBe(SmppStatus.ESME_RINVCMDLEN);
  });

  it('joins parts sent with the SAR TLVs, and takes a long text in message_payload', async () => {
    const client = await bound('bind_transmitter');
    const first = 'A'.repeat(153);
    const second = 'B'.repeat(20);
    const sar = (sequence: number, text: string) =>
      client.request('submit_sm', {
        destination_addr: '447700900502',
        dest_addr_ton: 1,
        data_coding: 0,
        short_message: Buffer.from(text, 'ascii'),
        sar_msg_ref_num: 0x1234,
        sar_total_segments: 2,
        sar_segment_seqnum: sequence,
      });
    const one = await sar(1, first);
    const two = await sar(2, second);
    expect([one?.command_status, two?.command_status]).toEqual([0, 0]);
    expect(two?.message_id).toBe(one?.message_id);
    await waitForState(harness.api, `/messages/${String(two?.message_id)}`, 'Sent');
    expect(textsTo('+447700900502').join('')).toBe(first + second);

    const long = 'Payload text. '.repeat(30).trim();
    const payload = await client.request('submit_sm', {
      destination_addr: '07700900503',
      data_coding: 1,
      short_message: Buffer.alloc(0),
      message_payload: Buffer.from(long, 'ascii'),
    });
    expect(payload?.command_status).toBe(0);
    await waitForState(harness.api, `/messages/${String(payload?.message_id)}`, 'Sent');
    expect(textsTo('+447700900503').join('')).toBe(long);
  });

  it('sends binary data to the port of destination_port', async () => {
    const client = await bound('bind_transmitter');
    const response = await client.request('submit_sm', {
      destination_addr: '447700900504',
      dest_addr_ton: 1,
      data_coding: 4,
      short_message: Buffer.from([1, 2, 3, 254]),
      dest_port: 16000,
    });
    expect(response?.command_status).toBe(0);
    const message = await harness.api.get<ApiMessage & { dataMessage?: { data: string; port: number } }>(
      `/messages/${String(response?.message_id)}`,
    );
    expect(message.body.dataMessage).toEqual({
      data: Buffer.from([1, 2, 3, 254]).toString('base64'),
      port: 16000,
    });
    const refused = await client.request('submit_sm', {
      destination_addr: '447700900504',
      data_coding: 4,
      short_message: Buffer.from([1]),
    });
    expect(refused?.command_status).toBe(SmppStatus.ESME_RMISSINGTLV);
  });

  it('schedules by a relative schedule_delivery_time, reports it by query_sm and cancels it by cancel_sm', async () => {
    const client = await bound('bind_transmitter');
    const before = Date.now();
    const response = await client.request('submit_sm', {
      destination_addr: '447700900505',
      dest_addr_ton: 1,
      short_message: Buffer.from('later', 'ascii'),
      data_coding: 1,
      schedule_delivery_time: '000000010000000R',
      validity_period: '000002000000000R',
    });
    expect(response?.command_status).toBe(0);
    const id = String(response?.message_id);
    const message = await harness.api.get<{ scheduleAt: string; validUntil: string; state: string }>(
      `/messages/${id}`,
    );
    expect(message.body.state).toBe('Pending');
    expect(Date.parse(message.body.scheduleAt) - before).toBeGreaterThanOrEqual(3_600_000 - 1_000);
    expect(Date.parse(message.body.scheduleAt) - before).toBeLessThan(3_600_000 + 60_000);
    expect(Date.parse(message.body.validUntil) - before).toBeGreaterThanOrEqual(2 * 86_400_000 - 1_000);

    const enroute = await client.request('query_sm', { message_id: id });
    expect(enroute).toMatchObject({ command_status: 0, message_id: id, message_state: 1 });
    expect((await client.request('cancel_sm', { message_id: id }))?.command_status).toBe(0);
    const deleted = await client.request('query_sm', { message_id: id });
    expect(deleted).toMatchObject({ command_status: 0, message_state: 4 });
    expect((await client.request('cancel_sm', { message_id: 'no-such-id' }))?.command_status).toBe(
      SmppStatus.ESME_RCANCELFAIL,
    );
    expect((await client.request('query_sm', { message_id: 'no-such-id' }))?.command_status).toBe(
      SmppStatus.ESME_RQUERYFAIL,
    );
    const past = await client.request('submit_sm', {
      destination_addr: '447700900505',
      dest_addr_ton: 1,
      short_message: Buffer.from('x', 'ascii'),
      validity_period: '200101000000000+',
    });
    expect(past?.command_status).toBe(SmppStatus.ESME_RINVEXPIRY);
    const nowhere = await client.request('submit_sm', {
      destination_addr: 'reception',
      short_message: Buffer.from('x'),
    });
    expect(nowhere?.command_status).toBe(SmppStatus.ESME_RINVDSTADR);
  });

  it('answers query_sm of a message the modem refused with +CMS ERROR 500 with error_code 0xFF, and serves on', async () => {
    harness.ptyModem(0).failSends(500);
    try {
      const client = await bound('bind_transmitter');
      const submitted = await client.request('submit_sm', {
        destination_addr: '447700900777',
        dest_addr_ton: 1,
        short_message: Buffer.from('refused', 'ascii'),
      });
      expect(submitted?.command_status).toBe(0);
      const id = String(submitted?.message_id);
      await waitForState(harness.api, `/messages/${id}`, 'Failed', 120_000);
      // One octet (§4.8.2): 500 is the modem's own error, told as TP-FCS 0xFF "unspecified".
      const query = await client.request('query_sm', { message_id: id });
      expect(query).toMatchObject({ command_status: 0, message_state: 5, error_code: 0xff });
      expect((await client.request('enquire_link'))?.command_status).toBe(0);
      expect((await harness.api.get('/health/live')).status).toBe(200);
    } finally {
      harness.ptyModem(0).clearFailures();
    }
  }, 180_000);

  it('holds a receipt while no receiver is bound and delivers it to the next one', async () => {
    // The receivers bound by earlier cases would take it.
    for (const client of clients.splice(0)) {
      client.destroy();
      await client.closed;
    }
    const transmitter = await bound('bind_transmitter');
    const response = await transmitter.request('submit_sm', {
      destination_addr: '447700900506',
      dest_addr_ton: 1,
      data_coding: 1,
      short_message: Buffer.from('receipt later', 'ascii'),
      registered_delivery: 1,
    });
    expect(response?.command_status).toBe(0);
    const id = String(response?.message_id);
    await waitForState(harness.api, `/messages/${id}`, 'Delivered');
    const receiver = await bound('bind_receiver');
    await pollUntil(() => receiver.delivered.some((pdu) => pdu.receipted_message_id === id), {
      what: 'the held receipt',
    });
    const receipt = receiver.delivered.find((pdu) => pdu.receipted_message_id === id);
    expect(receipt).toMatchObject({ esm_class: 4, message_state: 2 });
  });

  it('delivers a long incoming SMS whole in message_payload, or in parts with a UDH when asked', async () => {
    // Any receiver bound with the login may take an incoming SMS: only this one stays.
    for (const client of clients.splice(0)) {
      client.destroy();
      await client.closed;
    }
    const receiver = await bound('bind_receiver');
    const long = 'The quick brown fox jumps over the lazy dog. '.repeat(6).trim();
    harness.ptyModem(0).injectIncoming({ sender: '+447700900508', text: long });
    await pollUntil(() => receiver.delivered.some((pdu) => pdu.source_addr === '447700900508'), {
      what: 'the whole message',
    });
    const whole = receiver.delivered.filter((pdu) => pdu.source_addr === '447700900508');
    expect(whole).toHaveLength(1);
    expect(whole[0]?.esm_class).toBe(0);

    const changed = await harness.api.patch('/settings', { smpp: { mo_as_parts: true } });
    expect(changed.status).toBe(200);
    harness.ptyModem(0).injectIncoming({ sender: '+447700900509', text: long });
    await pollUntil(
      () => receiver.delivered.filter((pdu) => pdu.source_addr === '447700900509').length === 2,
      {
        what: 'two parts',
      },
    );
    const parts = receiver.delivered.filter((pdu) => pdu.source_addr === '447700900509');
    // The package's client takes the UDH off (its message filter) and keeps it beside the text.
    expect(parts.map((pdu) => pdu.esm_class)).toEqual([0x40, 0x40]);
    const texts = parts.map((pdu) => pdu.short_message as { udh?: Buffer[]; message: string });
    const ordered = [...texts].sort((a, b) => (a.udh?.[0]?.[4] ?? 0) - (b.udh?.[0]?.[4] ?? 0));
    expect(ordered.map((part) => part.udh?.[0]?.[3])).toEqual([2, 2]);
    expect(ordered.map((part) => part.message).join('')).toBe(long);
  });

  it('answers a submit sent again within the window with the first id, and queues it once', async () => {
    const client = await bound('bind_transmitter');
    const submit = (text: string) =>
      client.request('submit_sm', {
        source_addr: 'Shop',
        destination_addr: '447700900606',
        dest_addr_ton: 1,
        short_message: Buffer.from(text, 'ascii'),
      });
    const first = await submit('Your code is 4711');
    const again = await submit('Your code is 4711');
    const other = await submit('Your code is 4712');
    expect([first, again, other].map((response) => response?.command_status)).toEqual([0, 0, 0]);
    expect(again?.message_id).toBe(first?.message_id);
    expect(other?.message_id).not.toBe(first?.message_id);
    const listed = await harness.api.get<{ recipients: { phoneNumber: string }[] }[]>('/messages?limit=100');
    const toThatNumber = listed.body.filter((message) =>
      message.recipients.some((recipient) => recipient.phoneNumber === '+447700900606'),
    );
    expect(toThatNumber).toHaveLength(2);
  });

  it('answers ESME_RTHROTTLED while the queue is full', async () => {
    const client = await bound('bind_transmitter');
    harness.gateway.setSendingPaused(true);
    let status: number | undefined = 0;
    for (let index = 0; status === 0 && index <= maxPendingMessages + 5; index++) {
      status = (
        await client.request('submit_sm', {
          destination_addr: '447700900507',
          dest_addr_ton: 1,
          data_coding: 1,
          short_message: Buffer.from(`fill ${index}`, 'ascii'),
        })
      )?.command_status;
    }
    expect(status).toBe(SmppStatus.ESME_RTHROTTLED);
  });
});
