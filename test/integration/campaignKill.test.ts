/**
 * Security review (issue 36) item 7, as the review found it: the gateway is killed with SIGKILL
 * while it is queueing a campaign, so the client never gets its 202. After a restart on the same
 * data directory the client sends the same POST again under the same id: the campaign ends up
 * with exactly one message per recipient, whatever the kill cut off.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayApi } from '../support/gatewayHarness.js';
import { type ChildGateway, freePort, startChildGateway } from './support/childGateway.js';

const RECIPIENTS = 10_000;
const request = {
  id: 'killed-mid-post',
  text: 'Closed on Monday',
  recipients: {
    phoneNumbers: Array.from({ length: RECIPIENTS }, (_, index) => `+4915${String(index).padStart(9, '0')}`),
  },
};

interface Campaign {
  id: string;
  state: string;
  recipients: number;
  progress: { queued: number; cancelled: number };
}

async function totalMessages(api: GatewayApi): Promise<number> {
  return Number((await api.get('/messages?limit=1')).headers.get('X-Total-Count'));
}

describe('a campaign whose gateway is killed while it is queued', () => {
  let dataDir: string;
  let gateway: ChildGateway | undefined;
  let stateAfterRestart: string | undefined;
  let storedAfterRestart = 0;
  let retried: { status: number; body: Campaign };
  let retriedAgain: { status: number; body: Campaign };
  let messagesAfterRetry = 0;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'smsgw-campaign-kill-'));
    const options = { dataDir, port: await freePort(), extraArgs: ['--simulate'] };
    gateway = await startChildGateway(options);
    await gateway.api.post('/gateway/v1/sending', { paused: true });

    const posted = gateway.api.post('/gateway/v1/campaigns', request).catch(() => undefined);
    // Kill once a second chunk of messages shows (reads see a batch before it is durable, and
    // each chunk waits for the one before to be durable): some are stored, the rest are not yet.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const seen = await gateway.api
        .get<Campaign>(`/gateway/v1/campaigns/${request.id}`)
        .catch(() => undefined);
      if (seen?.status === 200 && seen.body.progress.queued > 500) break;
      await delay(5);
    }
    await gateway.kill();
    const answer = await posted;
    expect(answer?.status, 'the POST must not have been answered before the kill').not.toBe(202);

    gateway = await startChildGateway(options);
    stateAfterRestart = (await gateway.api.get<Campaign>(`/gateway/v1/campaigns/${request.id}`)).body.state;
    storedAfterRestart = await totalMessages(gateway.api);
    retried = await gateway.api.post<Campaign>('/gateway/v1/campaigns', request);
    retriedAgain = await gateway.api.post<Campaign>('/gateway/v1/campaigns', request);
    messagesAfterRetry = await totalMessages(gateway.api);
    console.info(
      `campaign kill: ${storedAfterRestart} of ${RECIPIENTS} messages stored at the kill (${stateAfterRestart}); ${messagesAfterRetry} after the retry`,
    );
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('shows the campaign cut short as Interrupted after the restart', () => {
    expect(storedAfterRestart).toBeGreaterThan(0);
    expect(storedAfterRestart).toBeLessThan(RECIPIENTS);
    expect(stateAfterRestart).toBe('Interrupted');
  });

  it('answers the retry with the campaign, completed with exactly one message per recipient', () => {
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: request.id, recipients: RECIPIENTS, state: 'Running' });
    expect(retried.body.progress.queued).toBe(RECIPIENTS);
    expect(messagesAfterRetry).toBe(RECIPIENTS);
  });

  it('answers a further retry the same way without queueing anything', () => {
    expect(retriedAgain.status).toBe(202);
    expect(retriedAgain.body).toEqual(retried.body);
  });
});
