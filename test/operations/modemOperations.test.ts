/**
 * Issue 15 acceptance on real ptys: USSD (text, Huawei packed hex, UCS-2; sessions; timeout;
 * refusal), incoming calls (hung up per modem family, recorded, answered by SMS), a USSD request
 * and a call arriving while a two-part send is in flight, the balance schedule with its
 * low-balance event, a nearly full SIM read empty, and the per-modem figures.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LowBalanceEvent, MissedCallEvent } from '../../server/contract/domain/device.js';
import { type ApiMessage, waitForReadyModems, waitForState } from '../integration/support/apiReads.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';

interface Exchange {
  answer: string;
  state: 'waiting' | 'done' | 'ended-by-network';
  sessionId?: string;
}

interface DeviceView {
  id: string;
  modem: {
    imei?: string;
    balance?: { amount?: number; low: boolean; answer: string };
    messageStorage?: { memory: string; used: number; total: number; roles: string[] }[];
  };
}

/** Modem 0: generic, slow network for sends. 1: Huawei (packed hex, AT+CHUP). 2: UCS-2. 3: small SIM. */
const generic = 0;
const huawei = 1;
const ucs2 = 2;
const smallSim = 3;

// 160+ GSM characters: two parts, so a USSD request or a call could fall between them.
const twoPartText = 'Two parts so that nothing may come between them. '.repeat(5);

describe('modem operations on real ptys', () => {
  let harness: GatewayHarness;
  const ids: string[] = [];
  const calls: MissedCallEvent[] = [];
  const lowBalances: LowBalanceEvent[] = [];

  beforeAll(async () => {
    harness = await startGatewayHarness({
      ptyModems: 4,
      ptyModemOptions: (index) => {
        if (index === generic) return { sendDelayMs: 700, ussdDelayMs: 100 };
        if (index === huawei)
          return {
            identity: { manufacturer: 'huawei', model: 'E173' },
            ussdForm: 'packed-hex',
            hangUp: 'AT+CHUP',
          };
        if (index === ucs2) return { ussdForm: 'ucs2' };
        return { storageSize: 5 };
      },
      modemTiming: {
        ussdTimeoutMs: 1_500,
        healthIntervalMs: 1_000,
        pollIntervalMs: 600_000,
        pollAfterSendMs: 300,
      },
    });
    await waitForReadyModems(harness.api, 4);
    const devices = (await harness.api.get<DeviceView[]>('/devices')).body;
    for (let index = 0; index < 4; index++) {
      const imei = `35690000000${String(index).padStart(4, '0')}`;
      const device = devices.find((candidate) => candidate.modem.imei === imei);
      if (!device) throw new Error(`no device for pty modem ${index}`);
      ids.push(device.id);
    }
    harness.gateway.events.on('call:missed', (call) => calls.push(call));
    harness.gateway.events.on('modem:low-balance', (low) => lowBalances.push(low));
  }, 60_000);

  afterAll(async () => {
    await harness?.close();
  });

  const ussd = (index: number, body: object) =>
    harness.api.post<Exchange>(`/gateway/v1/devices/${ids[index]}/ussd`, body);

  it('answers a USSD code with the network text', async () => {
    const response = await ussd(generic, { code: '*100#' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      answer: 'Your balance is 12.50 EUR. Valid until 31.12.2026.',
      state: 'done',
    });
    expect(harness.ptyModem(generic).commands).toContain('AT+CUSD=1,"*100#",15');
  });

  it('keeps the line breaks of an answer that spans several lines', async () => {
    harness
      .ptyModem(generic)
      .setUssdService('*103#', { answer: 'Balance: 3.20 EUR\nValid until 01.02.2027\nThank you' });
    const response = await ussd(generic, { code: '*103#' });
    expect(response.body.answer).toBe('Balance: 3.20 EUR\nValid until 01.02.2027\nThank you');
  });

  it('sends and reads USSD as packed septets in hex on a Huawei stick', async () => {
    const response = await ussd(huawei, { code: '*100#' });
    expect(response.status).toBe(200);
    expect(response.body.answer).toBe('Your balance is 12.50 EUR. Valid until 31.12.2026.');
    // The packed form of *100# that Huawei users type by hand (AT+CUSD=1,"AA180C3602",15).
    expect(harness.ptyModem(huawei).commands).toContain('AT+CUSD=1,"AA180C3602",15');
  });

  it('reads a UCS-2 answer (DCS 72)', async () => {
    harness.ptyModem(ucs2).setUssdService('*102#', { answer: 'Ваш баланс 150,75 руб.' });
    const response = await ussd(ucs2, { code: '*102#' });
    expect(response.status).toBe(200);
    expect(response.body.answer).toBe('Ваш баланс 150,75 руб.');
  });

  it('continues an interactive session with its id and cancels it with AT+CUSD=2', async () => {
    const menu = await ussd(generic, { code: '*101#' });
    expect(menu.body).toMatchObject({ answer: 'Menu: 1 Balance, 2 Bundles', state: 'waiting' });
    const sessionId = menu.body.sessionId;
    expect(sessionId).toBeTypeOf('string');

    const wrong = await ussd(generic, { code: '2', sessionId: 'not-a-session' });
    expect(wrong.status).toBe(404);
    expect(wrong.body).toMatchObject({ message: expect.stringContaining('USSD session not-a-session') });

    const bundles = await ussd(generic, { code: '2', sessionId });
    expect(bundles.body).toMatchObject({
      answer: 'Bundles: 1 Day pass, 2 Week pass',
      state: 'waiting',
      sessionId,
    });

    const cancelled = await harness.api.request(
      'DELETE',
      `/gateway/v1/devices/${ids[generic]}/ussd/${sessionId}`,
    );
    expect(cancelled.status).toBe(204);
    expect(harness.ptyModem(generic).commands.at(-1)).toBe('AT+CUSD=2');
    const again = await ussd(generic, { code: '1', sessionId });
    expect(again.status).toBe(404);

    const recent = await harness.api.get<Exchange[]>(`/gateway/v1/devices/${ids[generic]}/ussd`);
    expect(recent.body.slice(0, 2).map((exchange) => exchange.answer)).toEqual([
      'Bundles: 1 Day pass, 2 Week pass',
      'Menu: 1 Balance, 2 Bundles',
    ]);
  });

  it('answers 504 when the network never answers, and ends the session', async () => {
    harness.ptyModem(generic).setUssdService('*555#', {});
    const response = await ussd(generic, { code: '*555#' });
    expect(response.status).toBe(504);
    await pollUntil(() => harness.ptyModem(generic).commands.at(-1) === 'AT+CUSD=2', { what: 'AT+CUSD=2' });
  });

  it('answers 502 when the network does not know the code, and 400 for a malformed one', async () => {
    const unknown = await ussd(generic, { code: '*999#' });
    expect(unknown.status).toBe(502);
    const malformed = await ussd(generic, { code: 'balance please' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ message: expect.stringMatching(/^code: /) });
  });

  it('runs a USSD request that arrives during a two-part send after the send, not between its parts', async () => {
    const modem = harness.ptyModem(generic);
    const sent = await harness.api.post<ApiMessage>('/messages', {
      textMessage: { text: twoPartText },
      phoneNumbers: ['+447700900311'],
      deviceId: ids[generic],
      withDeliveryReport: false,
    });
    expect(sent.status).toBe(202);
    const firstPart = modem.commands.length;
    await pollUntil(() => modem.commands.slice(firstPart).some((command) => command.startsWith('AT+CMGS=')), {
      what: 'the first AT+CMGS',
    });
    const response = await ussd(generic, { code: '*100#' });
    expect(response.status).toBe(200);
    await waitForState(harness.api, `/messages/${sent.body.id}`, 'Sent');
    const order = modem.commands
      .slice(firstPart)
      .filter((command) => command.startsWith('AT+CMGS=') || command.startsWith('AT+CUSD=1'));
    expect(order.map((command) => command.slice(0, 8))).toEqual(['AT+CMGS=', 'AT+CMGS=', 'AT+CUSD=']);
  });

  it('hangs up a call that rings during a two-part send only after the send, and records it', async () => {
    const modem = harness.ptyModem(generic);
    const sent = await harness.api.post<ApiMessage>('/messages', {
      textMessage: { text: twoPartText },
      phoneNumbers: ['+447700900312'],
      deviceId: ids[generic],
      withDeliveryReport: false,
    });
    const firstPart = modem.commands.length;
    await pollUntil(() => modem.commands.slice(firstPart).some((command) => command.startsWith('AT+CMGS=')), {
      what: 'the first AT+CMGS',
    });
    modem.ringIncomingCall('+447700900999', { intervalMs: 3_000 });
    await waitForState(harness.api, `/messages/${sent.body.id}`, 'Sent');
    await pollUntil(() => !modem.isRinging, { what: 'the call to end' });
    const order = modem.commands
      .slice(firstPart)
      .filter((command) => command.startsWith('AT+CMGS=') || command === 'ATH' || command === 'AT+CHUP');
    expect(order.map((command) => command.slice(0, 8))).toEqual(['AT+CMGS=', 'AT+CMGS=', 'ATH']);
    expect(modem.callsEnded).toEqual(['ATH']);

    await pollUntil(() => calls.some((call) => call.number === '+447700900999'), { what: 'call:missed' });
    const listed = await harness.api.get<{ phoneNumber: string; rejected: boolean; deviceId: string }[]>(
      '/gateway/v1/calls?phoneNumber=%2B447700900999',
    );
    expect(listed.body).toEqual([
      expect.objectContaining({ phoneNumber: '+447700900999', rejected: true, deviceId: ids[generic] }),
    ]);
    expect(listed.headers.get('x-total-count')).toBe('1');
  });

  it('hangs up with AT+CHUP on a Huawei stick and answers the caller with the SMS text', async () => {
    const text = 'We only take messages on this number.';
    const put = await harness.api.request('PUT', `/gateway/v1/devices/${ids[huawei]}/operations`, {
      json: { callReplyText: text },
    });
    expect(put.status).toBe(200);
    const modem = harness.ptyModem(huawei);
    modem.ringIncomingCall('+447700900888');
    await pollUntil(() => !modem.isRinging, { what: 'the call to end' });
    expect(modem.callsEnded).toEqual(['AT+CHUP']);
    // Huawei sticks answer ATH with OK and keep ringing: the driver must not rely on it.
    expect(modem.commands).not.toContain('ATH');
    await vi.waitFor(
      () => {
        const answer = harness
          .acceptedBy(huawei)
          .find((pdu) => pdu.decoded.recipient.number === '+447700900888');
        expect(answer?.decoded.text).toBe(text);
      },
      { timeout: 15_000, interval: 100 },
    );
  });

  it('leaves a call ringing when the modem is set not to reject calls, and still records it', async () => {
    await harness.api.request('PUT', `/gateway/v1/devices/${ids[ucs2]}/operations`, {
      json: { rejectCalls: false },
    });
    const modem = harness.ptyModem(ucs2);
    modem.ringIncomingCall('+447700900777', { rings: 2, intervalMs: 300 });
    await pollUntil(() => calls.some((call) => call.number === '+447700900777'), { what: 'call:missed' });
    expect(calls.find((call) => call.number === '+447700900777')?.rejected).toBe(false);
    expect(modem.callsEnded).toEqual([]);
  });

  it('checks the balance on its schedule, shows it on the device and raises modem:low-balance', async () => {
    const put = await harness.api.request('PUT', `/gateway/v1/devices/${ids[generic]}/operations`, {
      json: {
        balanceCode: '*100#',
        balanceIntervalMinutes: 5,
        lowBalanceThreshold: 20,
        balancePattern: 'balance is ([\\d.]+)',
      },
    });
    expect(put.status).toBe(200);
    await pollUntil(() => lowBalances.length > 0, { what: 'modem:low-balance' });
    expect(lowBalances[0]).toMatchObject({ deviceId: ids[generic], balance: 12.5, threshold: 20 });
    const device = (await harness.api.get<DeviceView>(`/devices`)).body as unknown as DeviceView[];
    const balance = device.find((candidate) => candidate.id === ids[generic])?.modem.balance;
    expect(balance).toMatchObject({ amount: 12.5, low: true });

    // The next reading above the threshold clears the warning; no second event while it stays low.
    harness.ptyModem(generic).setUssdService('*100#', { answer: 'Your balance is 25.00 EUR.' });
    const check = await harness.api.post<{ amount: number; low: boolean }>(
      `/gateway/v1/devices/${ids[generic]}/balance`,
      {},
    );
    expect(check.body).toMatchObject({ amount: 25, low: false });
    expect(lowBalances).toHaveLength(1);
  });

  it('reads a nearly full SIM empty at once and shows its use', async () => {
    const modem = harness.ptyModem(smallSim);
    for (let index = 0; index < 4; index++)
      modem.storeIncoming({ sender: '+447700900444', text: `stored ${index}` });
    expect(modem.storedOnSim).toBe(4);
    // The storage is polled every 10 minutes here: only the health round's AT+CPMS? can notice.
    await pollUntil(() => modem.storedOnSim === 0, { what: 'the SIM to be read empty', limitMs: 15_000 });
    const inbox = await harness.api.get<{ contentPreview: string }[]>(`/inbox?limit=50`);
    expect(inbox.body.map((entry) => entry.contentPreview)).toEqual(
      expect.arrayContaining(['stored 0', 'stored 1', 'stored 2', 'stored 3']),
    );
    await vi.waitFor(
      async () => {
        const devices = (await harness.api.get<DeviceView[]>('/devices')).body;
        const storage = devices.find((device) => device.id === ids[smallSim])?.modem.messageStorage;
        expect(storage).toEqual([expect.objectContaining({ memory: 'SM', used: 0, total: 5 })]);
      },
      { timeout: 5_000, interval: 100 },
    );
  });

  it('gives per-modem figures: counts per day and the signal history', async () => {
    const response = await harness.api.get<
      { deviceId: string; days: { sent: number; received: number }[]; signal: { rssi: number }[] }[]
    >(`/gateway/v1/stats?deviceId=${ids[generic]}&days=2`);
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
    const [figures] = response.body;
    expect(figures?.days).toHaveLength(2);
    expect(figures?.days.at(-1)?.sent).toBe(2);
    expect(figures?.signal.length).toBeGreaterThan(0);
    expect(figures?.signal[0]?.rssi).toBe(20);
    const small = await harness.api.get<{ days: { received: number }[] }[]>(
      `/gateway/v1/stats?deviceId=${ids[smallSim]}`,
    );
    expect(small.body[0]?.days.at(-1)?.received).toBe(4);
    expect((await harness.api.get('/gateway/v1/stats?deviceId=nope')).status).toBe(404);
  });
});
