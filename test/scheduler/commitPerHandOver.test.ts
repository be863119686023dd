/**
 * The records of a send's answer and the next hand-over's Processed mark share one commit of the
 * real store (one fdatasync per hand-over), on the real group commit and the real event loop: the
 * modem double answers from a timer callback, as a serial port's answer arrives from an I/O
 * callback, before the turn's commit.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import type { OutboundModem, SendRequest, SendResult } from '../../server/devices/pool/outboundModem.js';
import { silentLogger } from '../../server/logging/logger.js';
import { EventBus } from '../../server/services/events/eventBus.js';
import { MessageLifecycle } from '../../server/services/messages/messageLifecycle.js';
import { Scheduler } from '../../server/services/scheduler/scheduler.js';
import { openStorage, type Storage } from '../../server/store/storage.js';
import { temporaryDirectory } from '../store/storeTestKit.js';
import { defaultPolicy, FakeDeviceDirectory, pendingMessage } from './fakes.js';

/** Answers each send on the next timer tick; counts what it was asked to send. */
class PromptModem implements OutboundModem {
  readonly deviceId = 'prompt';
  readonly status = 'ready' as const;
  readonly lastSeen = Date.now();
  readonly simSlots = 1;
  readonly sent: string[] = [];

  send(request: SendRequest): Promise<SendResult> {
    this.sent.push(request.messageId);
    return new Promise((resolve) => setTimeout(() => resolve({ references: [this.sent.length % 256] }), 0));
  }
}

describe('one commit per hand-over', () => {
  let storage: Storage | undefined;
  let scheduler: Scheduler | undefined;
  let removeDir: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await scheduler?.stop();
    await storage?.close();
    await removeDir?.();
  });

  it('records a send and hands the modem its next message in the same commit', async () => {
    const dir = await temporaryDirectory();
    removeDir = dir.remove;
    storage = await openStorage({ dataDir: dir.path, clock: systemClock, logger: silentLogger });
    const commits = storage.sqlite.commits;
    const lifecycle = new MessageLifecycle(storage.messages, new EventBus(), systemClock, silentLogger);
    const devices = new FakeDeviceDirectory();
    const modem = new PromptModem();
    devices.add(modem);
    scheduler = new Scheduler({
      repository: storage.messages,
      lifecycle,
      devices,
      policy: () => ({ ...defaultPolicy, processingOrder: 'FIFO' }),
      decrypt: (message) => message,
      beforeCommit: (task) => commits.beforeCommit(task),
      clock: systemClock,
      logger: silentLogger,
    });
    const count = 40;
    const now = systemClock.now();
    await Promise.all(
      Array.from({ length: count }, (_, index) =>
        storage?.messages.insert(pendingMessage({ id: `m${index}` }, index + 1, now)),
      ),
    );
    const exec = vi.spyOn(storage.sqlite.db, 'exec');
    await scheduler.start();
    await vi.waitFor(
      () => {
        expect(storage?.messages.countInState('Sent')).toBe(count);
      },
      { timeout: 30_000, interval: 5 },
    );
    expect(modem.sent).toEqual(Array.from({ length: count }, (_, index) => `m${index}`));
    const commitCount = exec.mock.calls.filter(([sql]) => sql === 'COMMIT').length;
    // Each hand-over's commit carries the answer before it; the first has none, the last answer
    // has no hand-over after it. A commit of its own for each would make 2 × count.
    expect(commitCount).toBeLessThanOrEqual(count + 2);
  }, 60_000);
});
