import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basicAuthFor, type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

/**
 * Issue 39, accounts: people with roles sign in as themselves, the owner adds and removes them,
 * every route keeps to the caller's role, and the audit trail names who changed what.
 */
let harness: HttpHarness;

beforeEach(async () => {
  harness = await startHttpHarness();
});
afterEach(async () => {
  await harness.close();
});

const operator = basicAuthFor('olga', 'operator-pass-1');
const viewer = basicAuthFor('victor', 'viewer-pass-12');
const message = { textMessage: { text: 'Hello' }, phoneNumbers: ['+15551234567'] };

async function addPerson(name: string, password: string, role: string): Promise<string> {
  const response = await harness.request('/gateway/v1/users', {
    method: 'POST',
    json: { name, password, role },
  });
  expect(response.status).toBe(201);
  return (response.body as { id: string }).id;
}

async function addStaff(): Promise<{ olga: string; victor: string }> {
  return {
    olga: await addPerson('olga', 'operator-pass-1', 'operator'),
    victor: await addPerson('victor', 'viewer-pass-12', 'viewer'),
  };
}

describe('staff users', () => {
  it('lists the owner login first, then the people an owner added, never their password hashes', async () => {
    await addStaff();
    const response = await harness.request('/gateway/v1/users');
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: 'owner', name: 'admin', role: 'owner' },
      expect.objectContaining({ name: 'olga', role: 'operator', createdBy: 'admin' }),
      expect.objectContaining({ name: 'victor', role: 'viewer', createdBy: 'admin' }),
    ]);
    expect(response.text).not.toContain('scrypt');
  });

  it('lets an operator send but not change settings, and a viewer only read', async () => {
    await addStaff();
    expect(
      (await harness.request('/messages', { method: 'POST', json: message, authorization: operator })).status,
    ).toBe(202);
    const operatorSettings = await harness.request('/settings', {
      method: 'PATCH',
      json: { messages: { limit_value: 5 } },
      authorization: operator,
    });
    expect(operatorSettings.status).toBe(403);
    expect((operatorSettings.body as { message: string }).message).toContain('operator');

    expect((await harness.request('/messages', { authorization: viewer })).status).toBe(200);
    expect((await harness.request('/settings', { authorization: viewer })).status).toBe(200);
    expect(
      (await harness.request('/messages', { method: 'POST', json: message, authorization: viewer })).status,
    ).toBe(403);
    const viewerAdds = await harness.request('/gateway/v1/users', {
      method: 'POST',
      json: { name: 'mallory', password: 'mallory-pass', role: 'owner' },
      authorization: viewer,
    });
    expect(viewerAdds.status).toBe(403);
  });

  it('tells each caller who they are and what their role lets them do', async () => {
    await addStaff();
    const me = await harness.request('/gateway/v1/me', { authorization: viewer });
    expect(me.status).toBe(200);
    const body = me.body as { name: string; role: string; scopes: string[] };
    expect(body).toMatchObject({ name: 'victor', role: 'viewer' });
    expect(body.scopes).toContain('messages:list');
    expect(body.scopes).not.toContain('messages:send');
  });

  it('signs a person in with their own password, and the token keeps to their role', async () => {
    await addStaff();
    const issued = await harness.request('/auth/token', {
      method: 'POST',
      json: { scopes: ['all:any'], ttl: 600 },
      authorization: operator,
    });
    expect(issued.status).toBe(201);
    const bearer = `Bearer ${(issued.body as { access_token: string }).access_token}`;
    expect(
      (await harness.request('/messages', { method: 'POST', json: message, authorization: bearer })).status,
    ).toBe(202);
    expect((await harness.request('/gateway/v1/users', { authorization: bearer })).status).toBe(403);
    // Scopes beyond the role are refused by name, not quietly narrowed.
    const beyond = await harness.request('/auth/token', {
      method: 'POST',
      json: { scopes: ['settings:write'] },
      authorization: operator,
    });
    expect(beyond.status).toBe(403);
    expect((beyond.body as { message: string }).message).toMatch(/^scopes: .*settings:write/);
  });

  it('takes a changed role at once, and ends the login and tokens of a removed person', async () => {
    const { olga } = await addStaff();
    const issued = await harness.request('/auth/token', {
      method: 'POST',
      json: { scopes: ['all:any'] },
      authorization: operator,
    });
    const bearer = `Bearer ${(issued.body as { access_token: string }).access_token}`;
    const demoted = await harness.request(`/gateway/v1/users/${olga}`, {
      method: 'PATCH',
      json: { role: 'viewer' },
    });
    expect(demoted.status).toBe(200);
    expect(
      (await harness.request('/messages', { method: 'POST', json: message, authorization: bearer })).status,
    ).toBe(403);
    expect((await harness.request(`/gateway/v1/users/${olga}`, { method: 'DELETE' })).status).toBe(204);
    expect((await harness.request('/messages', { authorization: bearer })).status).toBe(401);
    expect((await harness.request('/messages', { authorization: operator })).status).toBe(401);
  });

  it('ends the tokens of a person given a new password; the new password works', async () => {
    const { olga } = await addStaff();
    const issued = await harness.request('/auth/token', {
      method: 'POST',
      json: { scopes: ['messages:list'] },
      authorization: operator,
    });
    const bearer = `Bearer ${(issued.body as { access_token: string }).access_token}`;
    await harness.request(`/gateway/v1/users/${olga}`, {
      method: 'PATCH',
      json: { password: 'a-new-pass-99' },
    });
    expect((await harness.request('/messages', { authorization: bearer })).status).toBe(401);
    expect((await harness.request('/messages', { authorization: operator })).status).toBe(401);
    expect(
      (await harness.request('/messages', { authorization: basicAuthFor('olga', 'a-new-pass-99') })).status,
    ).toBe(200);
  });

  it('refuses a taken name (409), a short password and a colon by field (400), and changes to the owner login', async () => {
    await addStaff();
    const taken = await harness.request('/gateway/v1/users', {
      method: 'POST',
      json: { name: 'admin', password: 'long-enough-1', role: 'viewer' },
    });
    expect(taken.status).toBe(409);
    expect((taken.body as { message: string }).message).toMatch(/^name: /);
    const short = await harness.request('/gateway/v1/users', {
      method: 'POST',
      json: { name: 'sam', password: 'short', role: 'viewer' },
    });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toContain('password');
    const colon = await harness.request('/gateway/v1/users', {
      method: 'POST',
      json: { name: 'a:b', password: 'long-enough-1', role: 'viewer' },
    });
    expect(colon.status).toBe(400);
    expect((await harness.request('/gateway/v1/users/owner', { method: 'DELETE' })).status).toBe(400);
  });

  it("counts one person's wrong passwords against their name, not the owner's", async () => {
    await addStaff();
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await harness.request('/messages', {
        authorization: basicAuthFor('olga', 'not-her-password'),
        headers: { 'User-Agent': 'guesser' },
      });
      expect(wrong.status).toBe(401);
    }
    // Her own right password is still let in, at its paced turn.
    const paced = await harness.request('/messages', {
      authorization: operator,
      headers: { 'User-Agent': 'guesser' },
    });
    expect(paced.status).toBe(200);
    // The owner, from another program, is not slowed by guesses at another name.
    expect((await harness.request('/messages', { headers: { 'User-Agent': 'owner-client' } })).status).toBe(
      200,
    );
  });
});

describe('audit trail', () => {
  it('names who sent a message, changed a setting and added a person', async () => {
    await addStaff();
    const sent = await harness.request('/messages', {
      method: 'POST',
      json: message,
      authorization: operator,
    });
    const messageId = (sent.body as { id: string }).id;
    await harness.request('/settings', { method: 'PATCH', json: { messages: { limit_value: 5 } } });

    const ofMessage = await harness.request(`/gateway/v1/audit?subject=${messageId}`, {
      authorization: viewer,
    });
    expect(ofMessage.status).toBe(200);
    expect(ofMessage.body).toEqual([
      expect.objectContaining({ actorName: 'olga', action: 'POST /messages', subject: messageId }),
    ]);

    const all = (await harness.request('/gateway/v1/audit')).body as Array<{
      actorName: string;
      action: string;
      fields: string[];
    }>;
    expect(all.map((event) => `${event.actorName} ${event.action}`)).toEqual([
      'admin PATCH /settings',
      'olga POST /messages',
      'admin POST /gateway/v1/users',
      'admin POST /gateway/v1/users',
    ]);
    // Field names only: the password an owner typed for a person is never stored.
    expect(all[3]?.fields).toEqual(['name', 'password', 'role']);
    expect(JSON.stringify(all)).not.toContain('operator-pass-1');
  });

  it('names who sent each message for an export, and keeps lookups out of the trail', async () => {
    await addStaff();
    const byOlga = await harness.request('/messages', {
      method: 'POST',
      json: message,
      authorization: operator,
    });
    const byOwner = await harness.request('/messages', { method: 'POST', json: message });
    const ids = [(byOlga.body as { id: string }).id, (byOwner.body as { id: string }).id, 'never-sent'];
    const actors = await harness.request('/gateway/v1/audit/actors', {
      method: 'POST',
      json: { subjects: ids },
      authorization: viewer,
    });
    expect(actors.status).toBe(200);
    expect(actors.body).toEqual({ [ids[0] as string]: 'olga', [ids[1] as string]: 'admin' });
    const trail = await harness.request('/gateway/v1/audit');
    expect(trail.headers['x-total-count']).toBe('4');
  });
});
