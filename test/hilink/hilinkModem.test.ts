import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import type { DecodedDeliver } from '../../server/contract/pdu/index.js';
import { HiLinkModem, hilinkLimitations } from '../../server/devices/hilink/hilinkModem.js';
import { HiLinkSession } from '../../server/devices/hilink/hilinkSession.js';
import { deriveDeviceId } from '../../server/devices/pool/deviceIdentity.js';
import { ErrorCode, GatewayError, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { HiLinkStickDouble } from '../support/hilinkStick.js';
import { pollUntil } from '../support/pollUntil.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const waitFor = (condition: () => boolean, limitMs = 15_000) =>
  pollUntil(condition, { limitMs, intervalMs: 10 });

async function stick() {
  const double = new HiLinkStickDouble();
  const url = await double.start();
  cleanups.push(() => double.stop());
  const session = new HiLinkSession({ baseUrl: url, clock: systemClock, timeoutMs: 2_000 });
  return { double, url, session };
}

async function modemOn(
  session: HiLinkSession,
  receive: (sms: DecodedDeliver) => Promise<void> = async () => undefined,
) {
  const modem = new HiLinkModem({
    session,
    receive: (_deviceId, _sim, sms) => receive(sms),
    clock: systemClock,
    logger: silentLogger,
    pollIntervalMs: 50,
    retryInitialMs: 50,
  });
  cleanups.push(() => modem.stop());
  await modem.start();
  return modem;
}

const text = (recipient: string, body: string) => ({
  messageId: 'h1',
  recipient,
  content: { kind: 'text' as const, text: body },
  simNumber: 1,
  requestStatusReport: false,
});

describe('the HiLink web API session', () => {
  it('sends each POST with the one-time token the previous answer handed out', async () => {
    const { double, session } = await stick();
    for (let round = 0; round < 3; round++) await session.post('sms/delete-sms', [['Index', 1]]);
    const posts = double.requests.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(3);
    // Token 0 came with SesTokInfo, tokens 1 and 2 in the answers of the first two POSTs.
    expect(posts.map((post) => post.token)).toEqual(double.issuedTokens.slice(0, 3));
    expect(new Set(posts.map((post) => post.cookie)).size).toBe(1);
  });

  it('opens a new session when the stick forgot the old one (125003) and retries once', async () => {
    const { double, session } = await stick();
    await session.get('monitoring/status');
    double.forgetSessions();
    await expect(session.post('sms/delete-sms', [['Index', 1]])).resolves.toContain('OK');
    expect(double.requests.filter((request) => request.path === '/api/webserver/SesTokInfo')).toHaveLength(2);
  });

  it('opens a new session after a CSRF refusal (125002) and retries once', async () => {
    const { double, session } = await stick();
    await session.post('sms/delete-sms', [['Index', 1]]);
    double.revokeTokens();
    await expect(session.post('sms/delete-sms', [['Index', 2]])).resolves.toContain('OK');
    const last = double.requests.at(-1);
    expect(last?.token).toBe(double.issuedTokens.at(-2));
  });

  it('gives up with HiLinkApiError 125003 when the new session is refused as well', async () => {
    const { double, session } = await stick();
    double.refuseSessions = true;
    const error = await session.get('monitoring/status').catch((caught: unknown) => caught);
    expect(isGatewayError(error, ErrorCode.HiLinkApiError)).toBe(true);
    expect((error as GatewayError).modemCode).toBe(125003);
    expect(double.requests.filter((request) => request.path === '/api/webserver/SesTokInfo')).toHaveLength(2);
  });
});

describe('a HiLink stick in the modem pool', () => {
  it('is ready with the identity and signal from device/information and monitoring/status, and says what it cannot do', async () => {
    const { session } = await stick();
    const modem = await modemOn(session);
    expect(modem.status).toBe('ready');
    expect(modem.deviceId).toBe(deriveDeviceId({ imei: '867698041234568', port: session.url }));
    expect(modem.details()).toMatchObject({
      kind: 'hilink',
      model: 'E3372h-320',
      imei: '867698041234568',
      signal: { bars: 3 },
      limitations: [...hilinkLimitations],
    });
  });

  it('sends a text with send-sms', async () => {
    const { double, session } = await stick();
    const modem = await modemOn(session);
    const result = await modem.send(text('+15551234567', 'Hello <stick> & co'));
    expect(double.sent).toEqual([{ phones: ['+15551234567'], content: 'Hello <stick> & co', reserved: '1' }]);
    expect(result.references).toEqual([-1]);
  });

  it('refuses a data message: the web API sends text only', async () => {
    const { double, session } = await stick();
    const modem = await modemOn(session);
    const error = await modem
      .send({ ...text('+15551234567', ''), content: { kind: 'data', data: 'AQ==', port: 5000 } })
      .catch((caught: unknown) => caught);
    expect(isGatewayError(error, ErrorCode.ValidationFailed)).toBe(true);
    expect(double.sent).toHaveLength(0);
  });

  it('takes each inbox message into the inbox and deletes it from the stick only after that', async () => {
    const { double, session } = await stick();
    const received: DecodedDeliver[] = [];
    await modemOn(session, async (sms) => {
      expect(double.inbox.map((message) => message.content)).toContain(sms.text);
      received.push(sms);
    });
    double.deliver('+15557654321', 'Grüße from the stick');
    await waitFor(() => received.length === 1);
    await waitFor(() => double.inbox.length === 0);
    expect(received[0]).toMatchObject({ text: 'Grüße from the stick', sender: { number: '+15557654321' } });
  });

  it('keeps a message on the stick when the inbox cannot store it', async () => {
    const { double, session } = await stick();
    let attempts = 0;
    await modemOn(session, async () => {
      attempts++;
      throw new GatewayError(ErrorCode.StoreIo, 'disk full');
    });
    double.deliver('+15557654321', 'keep me');
    await waitFor(() => attempts >= 2);
    expect(double.inbox).toHaveLength(1);
  });

  it('goes offline when the stick stops answering and is ready again when it is back', async () => {
    const { double, session } = await stick();
    const modem = await modemOn(session);
    await double.stop();
    await waitFor(() => modem.status === 'offline');
    expect(modem.details().statusDetail).toMatch(/does not answer/);
    const again = new HiLinkStickDouble();
    cleanups.push(() => again.stop());
    const port = new URL(session.url).port;
    await again.start(Number(port));
    await waitFor(() => modem.status === 'ready');
  });
});
