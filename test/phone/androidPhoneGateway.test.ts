import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encryptField } from '../../server/services/messages/e2eEncryption.js';
import {
  AndroidPhoneDouble,
  fastPhonePolling,
  limitExceededError,
  phonePatience,
} from '../support/androidPhone.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface DeviceBody {
  id: string;
  modem: { kind?: string; status: string; model?: string; phone?: { batteryPercent?: number } };
}
interface MessageBody {
  id: string;
  state: string;
  deviceId?: string;
  recipients: { phoneNumber: string; state: string; error?: string }[];
}

async function phoneAndGateway(options: { ptyModems?: number; logLevel?: 'DEBUG' | 'WARN' } = {}) {
  const phone = new AndroidPhoneDouble();
  const port = await phone.start();
  cleanups.push(() => phone.stop());
  const harness = await startGatewayHarness({
    ptyModems: options.ptyModems ?? 0,
    logLevel: options.logLevel ?? 'WARN',
    phoneTiming: fastPhonePolling,
    options: { phones: [phone.urlWithCredentials(port)] },
  });
  cleanups.push(() => harness.close());
  const phoneDevice = async () => {
    const devices = (await harness.api.get<DeviceBody[]>('/devices')).body;
    const device = devices.find((candidate) => candidate.modem.kind === 'android');
    if (!device) throw new Error('no phone in GET /devices');
    return device;
  };
  await vi.waitFor(async () => expect((await phoneDevice()).modem.status).toBe('ready'), phonePatience);
  return { phone, harness, phoneDevice };
}

async function send(
  harness: GatewayHarness,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const posted = await harness.api.post<{ id: string }>('/messages', {
    textMessage: { text },
    phoneNumbers: ['+15551234567'],
    ...extra,
  });
  expect(posted.status).toBe(202);
  return posted.body.id;
}

async function messageOf(harness: GatewayHarness, id: string): Promise<MessageBody> {
  return (await harness.api.get<MessageBody>(`/messages/${id}`)).body;
}

describe('an Android phone given with --phone', () => {
  it('is a device of the pool, without a simulated modem beside it', async () => {
    const { harness, phoneDevice } = await phoneAndGateway();
    const device = await phoneDevice();
    expect(device.modem).toMatchObject({ kind: 'android', model: 'oriole', phone: { batteryPercent: 87 } });
    expect(harness.gateway.simulatedModems).toHaveLength(0);
    expect((await harness.api.get<DeviceBody[]>('/devices')).body).toHaveLength(1);
  });

  it('sends a message once, under our id, Processed while the phone holds it, and follows it to Delivered by polling', async () => {
    const { phone, harness, phoneDevice } = await phoneAndGateway();
    const id = await send(harness, 'via the phone');
    await vi.waitFor(() => expect(phone.messages.has(id)).toBe(true), phonePatience);
    expect((await messageOf(harness, id)).state).toBe('Processed');
    await phone.advance(id, 'Sent');
    await vi.waitFor(async () => expect((await messageOf(harness, id)).state).toBe('Sent'), phonePatience);
    expect(phone.messages.get(id)).toMatchObject({
      phoneNumbers: ['+15551234567'],
      textMessage: { text: 'via the phone' },
      withDeliveryReport: true,
    });
    await phone.advance(id, 'Delivered');
    await vi.waitFor(
      async () => expect((await messageOf(harness, id)).state).toBe('Delivered'),
      phonePatience,
    );
    expect((await messageOf(harness, id)).deviceId).toBe((await phoneDevice()).id);
    expect(phone.posts.get(id)).toBe(1);
  });

  it('gives each recipient of a message its own phone message, with a stable id', async () => {
    const { phone, harness } = await phoneAndGateway();
    const id = await send(harness, 'to two', { phoneNumbers: ['+15551230001', '+15551230002'] });
    await vi.waitFor(() => expect([...phone.messages.keys()].sort()).toEqual([id, `${id}-1`]), phonePatience);
    expect(phone.messages.get(`${id}-1`)?.phoneNumbers).toEqual(['+15551230002']);
  });

  it('says in plain words what to change on the phone when Android refuses: too many SMS', async () => {
    const { phone, harness } = await phoneAndGateway();
    const id = await send(harness, 'one too many');
    await vi.waitFor(() => expect(phone.messages.has(id)).toBe(true), phonePatience);
    await phone.advance(id, 'Failed', limitExceededError);
    await vi.waitFor(async () => expect((await messageOf(harness, id)).state).toBe('Failed'), phonePatience);
    const error = (await messageOf(harness, id)).recipients[0]?.error ?? '';
    expect(error).toMatch(/about 30 SMS per 30 minutes/);
    expect(error).toMatch(/Always allow/);
    expect(error).toContain('RESULT_ERROR_LIMIT_EXCEEDED');
  });

  it('takes an incoming SMS from the phone inbox once, however often it is read', async () => {
    const { phone, harness } = await phoneAndGateway();
    await phone.receive('+15557654321', 'hello from the phone');
    await vi.waitFor(async () => {
      const inbox = (await harness.api.get<{ sender?: string; message?: string }[]>('/inbox')).body;
      expect(JSON.stringify(inbox)).toContain('hello from the phone');
    }, phonePatience);
    // Several more polls over the same inbox (its `from` is inclusive).
    const requestsBefore = phone.requests.filter((request) => request.path === '/inbox').length;
    await vi.waitFor(
      () =>
        expect(phone.requests.filter((request) => request.path === '/inbox').length).toBeGreaterThan(
          requestsBefore + 2,
        ),
      phonePatience,
    );
    const inbox = (await harness.api.get<unknown[]>('/inbox')).body;
    expect(inbox.filter((entry) => JSON.stringify(entry).includes('hello from the phone'))).toHaveLength(1);
  });

  it('keeps the phone password out of the logs and every API answer', async () => {
    const { phone, harness } = await phoneAndGateway({ logLevel: 'DEBUG' });
    await send(harness, 'secret test');
    await phone.stop();
    await vi.waitFor(async () => {
      const devices = (await harness.api.get<DeviceBody[]>('/devices')).body;
      expect(devices[0]?.modem.status).toBe('offline');
    }, phonePatience);
    const answers = await Promise.all(
      ['/devices', '/settings', '/health', '/gateway/v1/status', '/logs', '/messages'].map(
        async (path) => (await harness.api.get(path)).text,
      ),
    );
    expect(answers.join('\n')).not.toContain(phone.password);
    expect(answers[0]).toContain('127.0.0.1');
    expect(JSON.stringify(harness.logs)).not.toContain(phone.password);
    expect(harness.logs.some((record) => record.message.includes('does not answer'))).toBe(true);
  });
});

describe('a phone that goes away with messages queued', () => {
  it('leaves them to the serial modem of the same pool, and nothing it accepted goes elsewhere', async () => {
    const { phone, harness, phoneDevice } = await phoneAndGateway({ ptyModems: 1 });
    await vi.waitFor(async () => {
      const devices = (await harness.api.get<DeviceBody[]>('/devices')).body;
      expect(devices.filter((device) => device.modem.status === 'ready')).toHaveLength(2);
    }, phonePatience);
    const phoneId = (await phoneDevice()).id;
    // One message the phone accepts before it goes.
    const accepted = await send(harness, 'accepted by the phone', { deviceId: phoneId });
    await vi.waitFor(() => expect(phone.messages.has(accepted)).toBe(true), phonePatience);
    expect((await messageOf(harness, accepted)).state).toBe('Processed');
    expect((await harness.api.post('/gateway/v1/sending', { paused: true })).status).toBe(200);
    const queued = [
      await send(harness, 'queued 1'),
      await send(harness, 'queued 2'),
      await send(harness, 'queued 3'),
    ];
    await phone.unplug();
    expect((await harness.api.post('/gateway/v1/sending', { paused: false })).status).toBe(200);
    for (const id of queued) {
      await vi.waitFor(async () => expect((await messageOf(harness, id)).state).toBe('Sent'), phonePatience);
      expect((await messageOf(harness, id)).deviceId).not.toBe(phoneId);
    }
    expect(harness.acceptedBy(0)).toHaveLength(3);
    expect([...phone.messages.keys()]).toEqual([accepted]);
    await vi.waitFor(async () => expect((await phoneDevice()).modem.status).toBe('offline'), phonePatience);
    // Back again: what it accepted is followed up, not sent anywhere else.
    await phone.plugIn();
    await phone.advance(accepted, 'Delivered');
    await vi.waitFor(
      async () => expect((await messageOf(harness, accepted)).state).toBe('Delivered'),
      phonePatience,
    );
    expect(harness.acceptedBy(0)).toHaveLength(3);
  });
});

describe('an Android phone added on the Modems screen (POST /gateway/v1/phones)', () => {
  it('joins the pool, keeps its password in a 0600 file only, and is back after a restart', async () => {
    const phone = new AndroidPhoneDouble();
    const port = await phone.start();
    cleanups.push(() => phone.stop());
    const harness = await startGatewayHarness({ phoneTiming: fastPhonePolling, allowPrivateTargets: true });
    cleanups.push(() => harness.close());
    const added = await harness.api.post<DeviceBody>('/gateway/v1/phones', {
      url: `http://127.0.0.1:${port}`,
      username: phone.username,
      password: phone.password,
    });
    expect(added.status).toBe(201);
    expect(added.text).not.toContain(phone.password);
    const phoneStatus = async () =>
      (await harness.api.get<DeviceBody[]>('/devices')).body.find((device) => device.modem.kind === 'android')
        ?.modem.status;
    await vi.waitFor(async () => expect(await phoneStatus()).toBe('ready'), phonePatience);
    const file = join(harness.dataDir, 'phones.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain(phone.password);
    const everything = await Promise.all(
      ['/devices', '/settings', '/gateway/v1/status'].map(async (path) => (await harness.api.get(path)).text),
    );
    expect(everything.join('\n')).not.toContain(phone.password);

    await harness.restart();
    await vi.waitFor(async () => expect(await phoneStatus()).toBe('ready'), phonePatience);
  });

  it('checks a new password with the phone first: a wrong one is a 400 and the kept one stays (issue 36, item 11)', async () => {
    const phone = new AndroidPhoneDouble();
    const port = await phone.start();
    cleanups.push(() => phone.stop());
    const harness = await startGatewayHarness({ phoneTiming: fastPhonePolling, allowPrivateTargets: true });
    cleanups.push(() => harness.close());
    const url = `http://127.0.0.1:${port}`;
    const add = (password: string) =>
      harness.api.post<{ message: string }>('/gateway/v1/phones', {
        url,
        username: phone.username,
        password,
      });
    const phoneStatus = async () =>
      (await harness.api.get<DeviceBody[]>('/devices')).body.find((device) => device.modem.kind === 'android')
        ?.modem.status;
    expect((await add(phone.password)).status).toBe(201);
    await vi.waitFor(async () => expect(await phoneStatus()).toBe('ready'), phonePatience);

    const wrong = await add('not-the-password');
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/^password: /);
    const file = join(harness.dataDir, 'phones.json');
    expect(await readFile(file, 'utf8')).toContain(phone.password);
    expect(await readFile(file, 'utf8')).not.toContain('not-the-password');

    await harness.restart();
    await vi.waitFor(async () => expect(await phoneStatus()).toBe('ready'), phonePatience);
  });

  it('adds no phone whose app refuses the password (issue 36, item 11)', async () => {
    const phone = new AndroidPhoneDouble();
    const port = await phone.start();
    cleanups.push(() => phone.stop());
    const harness = await startGatewayHarness({ phoneTiming: fastPhonePolling, allowPrivateTargets: true });
    cleanups.push(() => harness.close());
    const refused = await harness.api.post<{ message: string }>('/gateway/v1/phones', {
      url: `http://127.0.0.1:${port}`,
      username: phone.username,
      password: 'not-the-password',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^password: /);
    const devices = (await harness.api.get<DeviceBody[]>('/devices')).body;
    expect(devices.filter((device) => device.modem.kind === 'android')).toEqual([]);
    const kept = await readFile(join(harness.dataDir, 'phones.json'), 'utf8').catch(() => '');
    expect(kept).not.toContain('not-the-password');
  });

  it('answers 400 naming the field for a password missing or an address with credentials in it', async () => {
    const harness = await startGatewayHarness();
    cleanups.push(() => harness.close());
    const noPassword = await harness.api.post<{ field?: string }>('/gateway/v1/phones', {
      url: 'http://10.0.0.5:8080',
    });
    expect(noPassword.status).toBe(400);
    expect(noPassword.text).toContain('password');
    const inline = await harness.api.post('/gateway/v1/phones', {
      url: 'http://sms:hunter22@10.0.0.5:8080',
      password: 'x',
    });
    expect(inline.status).toBe(400);
    expect(inline.text).not.toContain('hunter22');
  });
});

describe('a data message through a phone', () => {
  it('reaches the phone as the app takes it: dataMessage with data and port', async () => {
    const { phone, harness } = await phoneAndGateway();
    const posted = await harness.api.post<{ id: string }>('/messages', {
      dataMessage: { data: 'SGVsbG8=', port: 53739 },
      phoneNumbers: ['+15551234567'],
      withDeliveryReport: false,
    });
    expect(posted.status).toBe(202);
    await vi.waitFor(() => expect(phone.messages.has(posted.body.id)).toBe(true), phonePatience);
    expect(phone.messages.get(posted.body.id)).toMatchObject({
      dataMessage: { data: 'SGVsbG8=', port: 53739 },
      withDeliveryReport: false,
    });
  });
});

describe('our cancel of a message a phone holds', () => {
  it('becomes the app’s DELETE while the message is still Pending on the phone', async () => {
    const { phone, harness } = await phoneAndGateway();
    const id = await send(harness, 'changed my mind');
    await vi.waitFor(() => expect(phone.messages.has(id)).toBe(true), phonePatience);
    const cancelled = await harness.api.request<MessageBody>('DELETE', `/messages/${id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.state).toBe('Cancelled');
    expect(phone.messages.get(id)?.state).toBe('Cancelled');
    expect(phone.requests).toContainEqual({ method: 'DELETE', path: `/messages/${id}` });
    expect((await messageOf(harness, id)).recipients[0]?.state).toBe('Cancelled');
  });

  it('is refused once the phone has taken the message up, which then goes on to Sent', async () => {
    const { phone, harness } = await phoneAndGateway();
    const id = await send(harness, 'too late to stop');
    await vi.waitFor(() => expect(phone.messages.has(id)).toBe(true), phonePatience);
    await phone.advance(id, 'Processed');
    const refused = await harness.api.request<{ message: string }>('DELETE', `/messages/${id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/being sent by the phone/);
    expect((await messageOf(harness, id)).state).toBe('Processed');
    await phone.advance(id, 'Sent');
    await vi.waitFor(async () => expect((await messageOf(harness, id)).state).toBe('Sent'), phonePatience);
  });
});

describe('a phone’s own pace', () => {
  it('holds at most maxInFlight unsent messages, and takes the next one when one is sent', async () => {
    const { phone, harness, phoneDevice } = await phoneAndGateway();
    const deviceId = (await phoneDevice()).id;
    const patched = await harness.api.patch<{ pacing: { maxInFlight: number; maxPerPeriod: number } }>(
      `/gateway/v1/phones/${deviceId}`,
      { pacing: { maxInFlight: 2 } },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.pacing).toMatchObject({ maxInFlight: 2, maxPerPeriod: 30 });
    const ids = [await send(harness, 'one'), await send(harness, 'two'), await send(harness, 'three')];
    await vi.waitFor(() => expect(phone.messages.size).toBe(2), phonePatience);
    // Several polls later the third still waits in our queue, not on the phone.
    const polls = phone.requests.length;
    await vi.waitFor(() => expect(phone.requests.length).toBeGreaterThan(polls + 6), phonePatience);
    expect(phone.messages.size).toBe(2);
    const third = ids.find((id) => !phone.messages.has(id)) ?? '';
    expect((await messageOf(harness, third)).state).toBe('Pending');
    const first = ids.find((id) => phone.messages.has(id)) ?? '';
    await phone.advance(first, 'Sent');
    await vi.waitFor(() => expect(phone.messages.has(third)).toBe(true), phonePatience);
  });

  it('keeps to its cap per period, and says why the queue waits', async () => {
    const { phone, harness, phoneDevice } = await phoneAndGateway();
    const deviceId = (await phoneDevice()).id;
    await harness.api.patch(`/gateway/v1/phones/${deviceId}`, {
      pacing: { maxPerPeriod: 1, periodMinutes: 30 },
    });
    const first = await send(harness, 'within the cap');
    const second = await send(harness, 'over the cap');
    await vi.waitFor(() => expect(phone.messages.has(first)).toBe(true), phonePatience);
    await phone.advance(first, 'Sent');
    await vi.waitFor(async () => {
      const status = (
        await harness.api.get<{ scheduler?: { holding?: { reason: string } } }>('/gateway/v1/status')
      ).text;
      expect(status).toContain('rate-limit');
    }, phonePatience);
    expect(phone.messages.has(second)).toBe(false);
    const kept = (
      await harness.api.get<{ pacing: { maxPerPeriod: number } }>(`/gateway/v1/phones/${deviceId}`)
    ).body;
    expect(kept.pacing.maxPerPeriod).toBe(1);
  });

  it('answers 400 naming the field for a pacing out of range, and 404 for a device that is no phone', async () => {
    const { harness, phoneDevice } = await phoneAndGateway();
    const deviceId = (await phoneDevice()).id;
    const wrong = await harness.api.patch<{ message: string }>(`/gateway/v1/phones/${deviceId}`, {
      pacing: { maxInFlight: 0 },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('maxInFlight');
    const unknown = await harness.api.patch('/gateway/v1/phones/nosuchdevice', {
      pacing: { maxInFlight: 3 },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('an end-to-end encrypted message through a phone', () => {
  it('reaches the phone as it came: ciphertext number and text, isEncrypted true', async () => {
    const { phone, harness } = await phoneAndGateway();
    const passphrase = 'only the phone knows';
    const text = encryptField('secret words', passphrase, 1_000);
    const number = encryptField('+15551234567', passphrase, 1_000);
    const posted = await harness.api.post<{ id: string }>('/messages', {
      textMessage: { text },
      phoneNumbers: [number],
      isEncrypted: true,
    });
    expect(posted.status).toBe(202);
    await vi.waitFor(() => expect(phone.messages.has(posted.body.id)).toBe(true), phonePatience);
    expect(phone.messages.get(posted.body.id)).toMatchObject({
      isEncrypted: true,
      textMessage: { text },
      phoneNumbers: [number],
    });
    expect((await messageOf(harness, posted.body.id)).state).toBe('Processed');
  });
});

describe('a data SMS the phone received', () => {
  it('reaches our inbox as DATA_SMS by polling', async () => {
    const { phone, harness } = await phoneAndGateway();
    await phone.receiveData('+15557654321', Uint8Array.from([0xca, 0xfe, 0x01]));
    await vi.waitFor(async () => {
      const inbox = (await harness.api.get<{ type: string; contentPreview?: string }[]>('/inbox')).body;
      expect(inbox.filter((entry) => entry.type === 'DATA_SMS')).toHaveLength(1);
    }, phonePatience);
  });
});

describe('a restart while a phone holds a message', () => {
  it('leaves the message Processed even when the phone is away then, and follows it once it is back', async () => {
    const { phone, harness } = await phoneAndGateway();
    const id = await send(harness, 'held across a restart');
    await vi.waitFor(() => expect(phone.messages.has(id)).toBe(true), phonePatience);
    await phone.unplug();
    await harness.restart();
    expect((await messageOf(harness, id)).state).toBe('Processed');
    await phone.plugIn();
    await phone.advance(id, 'Sent');
    await vi.waitFor(async () => expect((await messageOf(harness, id)).state).toBe('Sent'), phonePatience);
    expect(phone.posts.get(id)).toBe(1);
  });
});

describe('a hand-over nobody answered', () => {
  it('is asked about once the phone answers again, and handed over again only because the phone never got it', async () => {
    const { phone, harness } = await phoneAndGateway({ logLevel: 'DEBUG' });
    phone.unresponsive = true;
    const id = await send(harness, 'lost on the way');
    await vi.waitFor(
      () =>
        expect(
          harness.logs.some((record) => record.message.includes('stopped answering during a hand-over')),
        ).toBe(true),
      phonePatience,
    );
    expect((await messageOf(harness, id)).state).toBe('Processed');
    phone.unresponsive = false;
    await vi.waitFor(() => expect(phone.messages.has(id)).toBe(true), phonePatience);
    expect(harness.logs.some((record) => record.message.includes('never reached the phone'))).toBe(true);
    expect(phone.posts.get(id)).toBe(1);
    expect((await messageOf(harness, id)).state).toBe('Processed');
  });
});
