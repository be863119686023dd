import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';

/**
 * Security review (issue 36) item 7: a campaign POST that lost its answer can be sent again.
 * Under the client's `id` a retry answers the campaign the first attempt started and queues no
 * message twice (the kill -9 form is test/integration/campaignKill.test.ts).
 */
let harness: GatewayHarness;
beforeAll(async () => {
  harness = await startGatewayHarness({ simulatedModems: 1 });
  // Nothing is sent: the count of queued messages is what the tests read.
  await harness.api.post('/gateway/v1/sending', { paused: true });
});
afterAll(async () => {
  await harness.close();
});

interface Campaign {
  id: string;
  name: string;
  recipients: number;
  state: string;
  progress: { queued: number };
}

async function total(path: string): Promise<number> {
  const response = await harness.api.get(`${path}?limit=1`);
  return Number(response.headers.get('X-Total-Count'));
}

const numbers = (first: number, count: number) =>
  Array.from({ length: count }, (_, index) => `+4916${String(first + index).padStart(8, '0')}`);

describe('a campaign started with its own id', () => {
  it('answers the same POST twice with one campaign and queues each message once', async () => {
    const messagesBefore = await total('/messages');
    const campaignsBefore = await total('/gateway/v1/campaigns');
    const request = {
      id: 'order-mail-1',
      name: 'Order mail',
      text: 'Your order is ready',
      recipients: { phoneNumbers: numbers(0, 1_200) },
    };
    const first = await harness.api.post<Campaign>('/gateway/v1/campaigns', request);
    const again = await harness.api.post<Campaign>('/gateway/v1/campaigns', request);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(first.body).toMatchObject({ id: 'order-mail-1', recipients: 1_200, state: 'Running' });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('Location')).toBe('/gateway/v1/campaigns/order-mail-1');
    expect(await total('/messages')).toBe(messagesBefore + 1_200);
    expect(await total('/gateway/v1/campaigns')).toBe(campaignsBefore + 1);
  });

  it('makes one campaign of two POSTs with the same id sent together', async () => {
    const messagesBefore = await total('/messages');
    const request = {
      id: 'twice-at-once',
      text: 'Hello',
      recipients: { phoneNumbers: numbers(10_000, 1_200) },
    };
    const [one, other] = await Promise.all([
      harness.api.post<Campaign>('/gateway/v1/campaigns', request),
      harness.api.post<Campaign>('/gateway/v1/campaigns', request),
    ]);
    expect([one.status, other.status]).toEqual([202, 202]);
    expect(other.body).toEqual(one.body);
    expect(await total('/messages')).toBe(messagesBefore + 1_200);
  });

  it('refuses the id with another request with a 409 naming the id, and queues nothing', async () => {
    const recipients = { phoneNumbers: numbers(30_000, 10) };
    const started = await harness.api.post('/gateway/v1/campaigns', {
      id: 'reused',
      text: 'Hello',
      recipients,
    });
    expect(started.status).toBe(202);
    const messagesBefore = await total('/messages');
    const refused = await harness.api.post<{ message: string }>('/gateway/v1/campaigns', {
      id: 'reused',
      text: 'Another text',
      recipients,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('id: campaign reused was started with another request');
    expect(await total('/messages')).toBe(messagesBefore);
  });

  it('stops writing messages when cancelled while queueing, and counts only those it wrote', async () => {
    const messagesBefore = await total('/messages');
    const request = {
      id: 'cancel-early',
      text: 'Hello',
      recipients: { phoneNumbers: numbers(40_000, 8_000) },
    };
    const posted = harness.api.post<Campaign>('/gateway/v1/campaigns', request);
    let seen = await harness.api.get<Campaign>('/gateway/v1/campaigns/cancel-early');
    while (seen.status !== 200) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen = await harness.api.get<Campaign>('/gateway/v1/campaigns/cancel-early');
    }
    const cancelled = await harness.api.post<Campaign>('/gateway/v1/campaigns/cancel-early/cancel', {});
    const answer = await posted;
    console.info(
      `cancel while queueing: seen as ${seen.body.state}, ${answer.body.recipients} of 8000 written`,
    );
    expect(cancelled.status).toBe(200);
    expect(answer.status).toBe(202);
    const after = await harness.api.get<Campaign & { progress: { cancelled: number } }>(
      '/gateway/v1/campaigns/cancel-early',
    );
    expect(after.body.state).toBe('Cancelled');
    expect(after.body.progress).toMatchObject({ queued: 0, cancelled: after.body.recipients });
    expect(await total('/messages')).toBe(messagesBefore + after.body.recipients);
  });

  it('refuses an id longer than 30 characters or with other characters than A-Z a-z 0-9 _ -', async () => {
    for (const id of ['x'.repeat(31), 'a/b', '']) {
      const refused = await harness.api.post<{ message: string }>('/gateway/v1/campaigns', {
        id,
        text: 'Hello',
        recipients: { phoneNumbers: numbers(20_000, 1) },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('id: must be 1 to 30 of A-Z a-z 0-9 _ -');
    }
  });
});
