/**
 * A gateway killed with SIGKILL in the middle of a hand-over to a phone: the phone stored the
 * message but its answer never arrived. After the restart the gateway asks the phone (GET
 * /messages/{id}) instead of sending again: the message stays Processed (the phone holds it, it
 * is not failed as interrupted) and follows the phone to Sent, and the phone got exactly one POST
 * for it. The phone's double counts POSTs per id.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ChildGateway, freePort, startChildGateway } from '../integration/support/childGateway.js';
import { AndroidPhoneDouble } from '../support/androidPhone.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a gateway killed during a hand-over to a phone', () => {
  it('settles it by asking the phone after the restart, and nothing is sent twice', async () => {
    const phone = new AndroidPhoneDouble();
    const phonePort = await phone.start();
    cleanups.push(() => phone.stop());
    const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-phone-crash-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const options = {
      dataDir,
      port: await freePort(),
      extraArgs: ['--phone', phone.urlWithCredentials(phonePort)],
    };
    let gateway: ChildGateway = await startChildGateway(options);
    cleanups.push(async () => {
      await gateway.stop();
    });

    phone.holdPosts = true;
    const posted = await gateway.api.post<{ id: string }>('/messages', {
      textMessage: { text: 'cut short' },
      phoneNumbers: ['+15551234567'],
    });
    expect(posted.status).toBe(202);
    const id = posted.body.id;
    await vi.waitFor(() => expect(phone.heldPostCount()).toBe(1), { timeout: 20_000, interval: 50 });
    await gateway.kill();
    phone.releaseHeldPosts();
    phone.holdPosts = false;

    gateway = await startChildGateway(options);
    await vi.waitFor(
      () =>
        expect(gateway.output()).toContain(
          'a hand-over from before a restart or an unanswered POST is on the phone',
        ),
      {
        timeout: 20_000,
        interval: 100,
      },
    );
    expect((await gateway.api.get<{ state: string }>(`/messages/${id}`)).body.state).toBe('Processed');
    await phone.advance(id, 'Sent');
    await vi.waitFor(
      async () => {
        const message = (await gateway.api.get<{ state: string }>(`/messages/${id}`)).body;
        expect(message.state).toBe('Sent');
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(phone.posts.get(id)).toBe(1);
    expect(phone.messages.size).toBe(1);
  }, 90_000);
});
