/**
 * A write-only secret cannot be led away (issue 46): a token that may change settings but not
 * read secrets must not learn the mail relay's password or the fleet token by pointing where
 * they are sent at a server of its own. Through PATCH /settings on the real Koa app.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

describe('changing where a secret is sent', () => {
  let harness: HttpHarness;
  let settingsWriter: string;

  beforeEach(async () => {
    harness = await startHttpHarness();
    const relay = await harness.request('/settings', {
      method: 'PATCH',
      json: {
        email_forward: { relay_host: 'smtp.example.com', relay_port: 587, relay_password: 'relay-secret' },
        gateway: { private_token: 'fleet-secret' },
      },
    });
    expect(relay.status).toBe(200);
    const token = await harness.request('/auth/token', {
      method: 'POST',
      json: { scopes: ['settings:write'] },
    });
    settingsWriter = `Bearer ${(token.body as { access_token: string }).access_token}`;
  });

  afterEach(async () => {
    await harness.close();
  });

  const patch = (json: object) =>
    harness.request('/settings', { method: 'PATCH', json, authorization: settingsWriter });

  it('refuses a new relay host, port or TLS choice without the relay password, naming the field', async () => {
    for (const change of [{ relay_host: 'attacker.example' }, { relay_port: 2525 }, { relay_secure: true }]) {
      const refused = await patch({ email_forward: change });
      expect(refused.status).toBe(403);
      expect((refused.body as { message: string }).message).toMatch(
        /^email_forward\.relay_\w+: .*relay_password/,
      );
    }
    expect(
      (await patch({ email_forward: { relay_host: 'new.example', relay_password: 'new-secret' } })).status,
    ).toBe(200);
    // What does not move the secret is taken as before, and so is a move that drops it.
    expect((await patch({ email_forward: { forward_reports: true } })).status).toBe(200);
    expect(
      (await patch({ email_forward: { relay_host: 'third.example', relay_password: null } })).status,
    ).toBe(200);
  });

  it('refuses a new fleet server URL without the fleet token', async () => {
    const refused = await patch({ gateway: { cloud_url: 'https://attacker.example/api/mobile/v1' } });
    expect(refused.status).toBe(403);
    expect((refused.body as { message: string }).message).toMatch(/^gateway\.cloud_url: /);
    const given = await patch({
      gateway: { cloud_url: 'https://fleet.example/api/mobile/v1', private_token: 'another-token' },
    });
    expect(given.status).toBe(200);
  });
});
