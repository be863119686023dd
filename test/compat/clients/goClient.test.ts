import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type GatewayUnderTest, startGatewayUnderTest } from '../support/gatewayUnderTest.js';

/**
 * The Go client (android-sms-gateway/client-go), each call as `smsgateway/client.go` builds it,
 * each answer decoded as encoding/json would: names from the `json:"…"` tags, `time.Time` from
 * an RFC 3339 string. encoding/json ignores unknown keys and leaves missing ones zero, so a
 * check here also asserts the zero value would be wrong.
 */
const rfc3339 = z.iso.datetime({ offset: true });

/** `smsgateway/dto_auth.go` TokenResponse. */
const tokenResponse = z.object({
  id: z.string().min(1),
  token_type: z.literal('Bearer'),
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_at: rfc3339,
});

describe('the Go client', () => {
  let gateway: GatewayUnderTest;
  beforeAll(async () => {
    gateway = await startGatewayUnderTest();
  });
  afterAll(async () => {
    await gateway.stop();
  });

  /** GenerateToken posts `dto_auth.go` TokenRequest `{ttl (omitempty), scopes}` to /auth/token. */
  it('generates a token and reads the snake_case TokenResponse fields', async () => {
    const issued = await gateway.request('POST', '/auth/token', {
      json: { ttl: 3600, scopes: ['messages:list'] },
    });
    expect(issued.status, issued.text).toBe(201);
    const token = tokenResponse.parse(issued.body);
    const read = await gateway.request('GET', '/messages', { authorization: `Bearer ${token.access_token}` });
    expect(read.status).toBe(200);
  });
});
