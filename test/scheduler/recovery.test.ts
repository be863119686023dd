import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { INTERRUPTED_ERROR } from '../../server/contract/domain/failureTexts.js';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { MemoryMessageRepository, pendingMessage, SchedulerHarness, sentIds } from './fakes.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** A store as a process that died mid-send left it: `a` handed to m1, one recipient already Sent. */
async function storeWithInterruptedSend(clock: ManualClock): Promise<MemoryMessageRepository> {
  const repository = new MemoryMessageRepository();
  const message: MessageRecord = pendingMessage(
    { id: 'a', phoneNumbers: ['+1555', '+1666'] },
    1,
    clock.now(),
  );
  message.deviceId = 'm1';
  message.recipients = [
    { phoneNumber: '+1555', state: 'Sent', parts: [{ reference: 4 }] },
    { phoneNumber: '+1666', state: 'Processed' },
  ];
  message.state = 'Processed';
  message.states.Processed = clock.now();
  await repository.insert(message);
  return repository;
}

describe('Scheduler: crash recovery', () => {
  it('fails the recipients a crash left in flight as possibly sent, keeping those already Sent', async () => {
    const clock = new ManualClock();
    const repository = await storeWithInterruptedSend(clock);
    const harness = new SchedulerHarness(clock, { repository });
    const modem = harness.modem('m1');
    await harness.scheduler.start();
    await clock.advance(MINUTE);
    const message = harness.message('a');
    expect(message.recipients).toMatchObject([
      { phoneNumber: '+1555', state: 'Sent' },
      { phoneNumber: '+1666', state: 'Failed', error: INTERRUPTED_ERROR, failure: { code: 'interrupted' } },
    ]);
    expect(message.state).toBe('Sent');
    expect(modem.sent).toHaveLength(0);
  });

  it('re-queues the interrupted recipients when the user opted in to resend, and sends only those', async () => {
    const clock = new ManualClock();
    const repository = await storeWithInterruptedSend(clock);
    const harness = new SchedulerHarness(clock, { repository, policy: { resendInterrupted: true } });
    const modem = harness.modem('m2');
    await harness.scheduler.start();
    await clock.advance(MINUTE);
    expect(modem.sent.map((entry) => entry.request.recipient)).toEqual(['+1666']);
    expect(harness.message('a')).toMatchObject({ state: 'Sent', deviceId: 'm2' });
  });
});

describe('Scheduler: restart', () => {
  it('remembers the sliding window across a restart, so it cannot burst past the limit', async () => {
    const clock = new ManualClock();
    const policy = { limitPeriod: 'PerHour', limitValue: 2, processingOrder: 'FIFO' } as const;
    const before = new SchedulerHarness(clock, { policy });
    before.modem('m1');
    const start = clock.now();
    await before.enqueue({ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' });
    await before.scheduler.start();
    await clock.advance(10 * MINUTE);
    await before.scheduler.stop();
    expect(before.repository.inState('Sent').map((message) => message.id)).toEqual(['a', 'b']);

    const after = new SchedulerHarness(clock, { repository: before.repository, policy });
    const modem = after.modem('m1');
    await after.scheduler.start();
    await clock.advance(40 * MINUTE);
    expect(modem.sent).toHaveLength(0);
    await clock.advance(20 * MINUTE + 2 * SECOND);
    expect(sentIds(modem)).toEqual(['c', 'd']);
    expect(modem.sent.map((entry) => entry.at - start)).toEqual([60 * MINUTE, 60 * MINUTE + SECOND]);
  });
});

describe('Scheduler: a limit set after a restart', () => {
  it('still counts the sends made before the restart', async () => {
    const clock = new ManualClock();
    const before = new SchedulerHarness(clock, { policy: { processingOrder: 'FIFO' } });
    before.modem('m1');
    const start = clock.now();
    await before.enqueue({ id: 'a' }, { id: 'b' });
    await before.scheduler.start();
    await clock.advance(MINUTE);
    await before.scheduler.stop();
    expect(before.repository.inState('Sent').map((message) => message.id)).toEqual(['a', 'b']);

    // Restarted with no limit: nothing is read back until a limit asks for it.
    const after = new SchedulerHarness(clock, {
      repository: before.repository,
      policy: { processingOrder: 'FIFO' },
    });
    const modem = after.modem('m1');
    await after.scheduler.start();
    await clock.advance(MINUTE);
    after.setPolicy({ limitPeriod: 'PerHour', limitValue: 2 });
    await after.enqueue({ id: 'c' });
    await clock.advance(30 * MINUTE);
    expect(modem.sent).toHaveLength(0);
    await clock.advance(30 * MINUTE);
    expect(sentIds(modem)).toEqual(['c']);
    expect((modem.sent[0]?.at ?? 0) - start).toBeGreaterThanOrEqual(60 * MINUTE);
  });
});
