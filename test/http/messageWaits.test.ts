/**
 * GET /gateway/v1/messages/waiting on the real gateway with a simulated modem: why each queued
 * message waits and until when, for the Messages screen's rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';

interface Wait {
  reason: string;
  detail: string;
  nextAttemptAt?: number;
}

let harness: GatewayHarness;

beforeAll(async () => {
  harness = await startGatewayHarness({ simulatedModems: 1 });
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

const send = async (extra: object = {}) =>
  (
    await harness.api.post<{ id: string }>('/messages', {
      textMessage: { text: 'Your table is ready' },
      phoneNumbers: ['+15551230070'],
      ...extra,
    })
  ).body.id;

const waits = async (ids: string[]) =>
  (await harness.api.get<Record<string, Wait>>(`/gateway/v1/messages/waiting?ids=${ids.join(',')}`)).body;

describe('why a queued message waits', () => {
  it('says sending is paused, or when a scheduled message is due, and leaves out what is not queued', async () => {
    await harness.api.post('/gateway/v1/sending', { paused: true });
    const held = await send();
    const dueAt = Date.parse('2031-05-04T09:30:00Z');
    const scheduled = await send({ scheduleAt: new Date(dueAt).toISOString() });
    expect(await waits([held, 'no-such-message'])).toEqual({
      [held]: { reason: 'paused', detail: 'paused: sending was paused by the user' },
    });

    await harness.api.post('/gateway/v1/sending', { paused: false });
    await pollUntil(
      async () => (await harness.api.get<{ state: string }>(`/messages/${held}`)).body.state !== 'Pending',
      { what: 'the held message to leave the queue', limitMs: 30_000 },
    );
    const answer = await waits([held, scheduled]);
    expect(Object.keys(answer)).toEqual([scheduled]);
    expect(answer[scheduled]).toMatchObject({ reason: 'scheduled', nextAttemptAt: dueAt });
    expect(answer[scheduled]?.detail).toMatch(/^scheduled: next send in \d+ h$/);
  });

  it('refuses a question about more messages than a page holds, naming ids', async () => {
    const response = await harness.api.get<{ message: string }>(
      `/gateway/v1/messages/waiting?ids=${Array.from({ length: 201 }, (_, index) => `m${index}`).join(',')}`,
    );
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/ids/);
  });
});
