/**
 * SMPP logins that fit (issue 47): SMPP 3.4 §4.1.1 gives a bind 15 characters of system_id and
 * 8 of password, so a person's or app's own login seldom fits. Each may have an SMPP login,
 * made and reset through the API (the People screen's and Settings' buttons call the same
 * routes); Debian's Net::SMPP binds with it as that person or app. Kannel binds with one in
 * test/smpp/kannel.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../bench/support/gatewayProcess.js';
import { SmppStatus } from '../../server/doors/smpp/smppStatus.js';
import { type PerlClient, runPerlClient } from '../smpp/support/perlClient.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { portAnswers } from '../support/portAnswers.js';

interface Issued {
  systemId: string;
  password: string;
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const hexOf = (text: string) => Buffer.from(text, 'latin1').toString('hex');
const fieldsOf = (line: string): Record<string, string> =>
  Object.fromEntries([...line.matchAll(/(\w+)=(\S*)/g)].map((match) => [match[1] ?? '', match[2] ?? '']));

describe('SMPP logins for people and apps', () => {
  let harness: GatewayHarness;
  let smppPort: number;
  let appId: string;
  const clients: PerlClient[] = [];

  const put = <Body = unknown>(path: string, json: unknown) =>
    harness.api.request<Body>('PUT', path, { json });
  const remove = (path: string) => harness.api.request('DELETE', path);

  /** Binds with Net::SMPP; answers the bind's status (0: bound). */
  const bind = async (systemId: string, password: string) => {
    const client = runPerlClient('session.pl', [String(smppPort), systemId, password, 'transceiver']);
    clients.push(client);
    const line = await client.waitForLine(/^(bound|bind_failed)/, `the bind of ${systemId}`);
    return { client, status: line === 'bound' ? 0 : Number(fieldsOf(line).status) };
  };

  beforeAll(async () => {
    harness = await startGatewayHarness({ ptyModems: 1 });
    smppPort = await freeLoopbackPort();
    const enabled = await harness.api.patch('/settings', {
      desk: { default_country: 'GB' },
      smpp: { enabled: true, port: smppPort },
    });
    expect(enabled.status).toBe(200);
    await pollUntil(() => portAnswers(smppPort), { what: 'the SMPP server', limitMs: 30_000 });
    const app = await harness.api.post<{ id: string }>('/gateway/v1/apps', {
      name: 'Web shop orders',
      password: 'a long app password that no SMPP bind can carry',
    });
    expect(app.status).toBe(201);
    appId = app.body.id;
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.kill();
    await harness?.close();
  });

  it("binds with an app's SMPP login as the app, and its messages are the app's", async () => {
    const made = await put<Issued>(`/gateway/v1/apps/${appId}/smpp-login`, {});
    expect(made.status).toBe(200);
    expect(made.body.systemId).toBe('Webshoporders');
    expect(made.body.password).toHaveLength(8);
    const listed = await harness.api.get<{ id: string; smppSystemId?: string }[]>('/gateway/v1/apps');
    expect(listed.body.find((app) => app.id === appId)?.smppSystemId).toBe('Webshoporders');

    const { client, status } = await bind(made.body.systemId, made.body.password);
    expect(status).toBe(0);
    client.send(`submit 447700900601 ${hexOf('from the shop')} 0`);
    const [response] = (await client.waitForLines(/^submit_sm_resp/, 1, 'the submit')).map(fieldsOf);
    expect(response?.status).toBe('0');
    // The app sees it as its own over HTTP, with its own (long) Basic login.
    const seen = await harness.api.request<{ id: string }>('GET', `/messages/${response?.message_id}`, {
      headers: { Authorization: basic('Web shop orders', 'a long app password that no SMPP bind can carry') },
    });
    expect(seen.status).toBe(200);
  });

  it('takes a new password on reset and refuses the old one', async () => {
    const before = await put<Issued>(`/gateway/v1/apps/${appId}/smpp-login`, {});
    const after = await put<Issued>(`/gateway/v1/apps/${appId}/smpp-login`, {});
    expect(after.body.systemId).toBe(before.body.systemId);
    expect((await bind(before.body.systemId, before.body.password)).status).toBe(SmppStatus.ESME_RINVPASWD);
    expect((await bind(after.body.systemId, after.body.password)).status).toBe(0);
  });

  it('refuses a system_id that does not fit, or is someone else’s, naming the field', async () => {
    const tooLong = await put<{ field?: string; message: string }>(`/gateway/v1/apps/${appId}/smpp-login`, {
      systemId: 'webshop-orders-1',
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.field).toBe('systemId');
    expect(tooLong.body.message).toContain('1 to 15');
    const owner = await harness.api.get<{ name: string }>('/gateway/v1/me');
    const taken = await put<{ field?: string }>(`/gateway/v1/apps/${appId}/smpp-login`, {
      systemId: owner.body.name,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.field).toBe('systemId');
    const unknown = await put('/gateway/v1/apps/no-such-app/smpp-login', {});
    expect(unknown.status).toBe(404);
  });

  it('lets a person who may send make their own, and not a viewer', async () => {
    for (const [name, role] of [
      ['Anna Lindström', 'operator'],
      ['Vic', 'viewer'],
    ]) {
      const added = await harness.api.post('/gateway/v1/users', {
        name,
        password: 'a password of theirs',
        role,
      });
      expect(added.status).toBe(201);
    }
    const asAnna = { Authorization: basic('Anna Lindström', 'a password of theirs') };
    const own = await harness.api.request<Issued>('PUT', '/gateway/v1/me/smpp-login', {
      headers: asAnna,
      json: { systemId: 'anna' },
    });
    expect(own.status).toBe(200);
    const me = await harness.api.request<{ smppSystemId?: string }>('GET', '/gateway/v1/me', {
      headers: asAnna,
    });
    expect(me.body.smppSystemId).toBe('anna');
    expect((await bind('anna', own.body.password)).status).toBe(0);
    const viewer = await harness.api.request('PUT', '/gateway/v1/me/smpp-login', {
      headers: { Authorization: basic('Vic', 'a password of theirs') },
      json: {},
    });
    expect(viewer.status).toBe(403);
  });

  it('ends with the app it belongs to, freeing its system_id', async () => {
    const made = await put<Issued>(`/gateway/v1/apps/${appId}/smpp-login`, {});
    expect((await remove(`/gateway/v1/apps/${appId}`)).status).toBe(204);
    expect((await bind(made.body.systemId, made.body.password)).status).not.toBe(0);
    const people = await harness.api.get<{ id: string; name: string }[]>('/gateway/v1/users');
    const anna = people.body.find((person) => person.name === 'Anna Lindström');
    const moved = await put<Issued>(`/gateway/v1/users/${anna?.id}/smpp-login`, {
      systemId: made.body.systemId,
    });
    expect(moved.status).toBe(200);
    expect((await remove(`/gateway/v1/users/${anna?.id}/smpp-login`)).status).toBe(204);
    expect((await remove(`/gateway/v1/users/${anna?.id}/smpp-login`)).status).toBe(404);
  });
});
