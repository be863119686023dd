import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayUnderTest, startGatewayUnderTest } from '../support/gatewayUnderTest.js';

/**
 * The PHP client (android-sms-gateway/client-php), each call as `src/Client.php` builds it:
 * base URL + path, `json_encode($payload->ToObject())`, and `sendRequest`'s rules — status
 * ≥ 400 throws, otherwise the body goes through `json_decode`, and most calls then throw
 * unless the result `is_object` (or `is_array` for lists).
 */
function phpDecodesToObject(text: string): boolean {
  if (text === '') return false; // json_decode('') is null
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

describe('the PHP client', () => {
  let gateway: GatewayUnderTest;
  beforeAll(async () => {
    gateway = await startGatewayUnderTest();
  });
  afterAll(async () => {
    await gateway.stop();
  });

  /** RequestInboxExport posts `src/Domain/MessagesExportRequest.php` {deviceId, since, until}. */
  it('requests an inbox export and gets an answer that decodes to an object', async () => {
    const devices = (await gateway.request('GET', '/devices')).body as { id: string }[];
    const response = await gateway.request('POST', '/inbox/export', {
      json: { deviceId: devices[0]?.id, since: '2026-01-01T00:00:00Z', until: '2026-01-01T23:59:59Z' },
    });
    expect(response.status).toBeLessThan(400);
    expect(phpDecodesToObject(response.text)).toBe(true);
  });

  /** GenerateToken: `src/Domain/TokenResponse.php` FromObject reads the snake_case names. */
  it('generates a token whose snake_case fields FromObject reads', async () => {
    const response = await gateway.request('POST', '/auth/token', {
      json: { scopes: ['messages:send'], ttl: 60 },
    });
    expect(response.status).toBeLessThan(400);
    expect(phpDecodesToObject(response.text)).toBe(true);
    expect(response.body).toMatchObject({
      access_token: expect.any(String),
      token_type: 'Bearer',
      id: expect.any(String),
      expires_at: expect.any(String),
    });
  });
});
