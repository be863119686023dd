import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { toMessageView } from '../../server/contract/domain/messageView.js';
import { SchedulerHarness, sentIds } from './fakes.js';

const SECOND = 1000;

async function poolWithSimulator() {
  const clock = new ManualClock();
  const harness = new SchedulerHarness(clock, { policy: { processingOrder: 'FIFO' } });
  const simulator = harness.modem('sim', { simulated: true });
  await harness.scheduler.start();
  return { clock, harness, simulator };
}

describe('Scheduler: the built-in simulator beside real modems', () => {
  it('lets the simulator send while it is alone, and marks those messages Simulated', async () => {
    const { clock, harness, simulator } = await poolWithSimulator();
    await harness.enqueue({ id: 'demo' });
    await clock.advance(5 * SECOND);
    expect(sentIds(simulator)).toEqual(['demo']);
    const record = harness.message('demo');
    expect(record.simulated).toBe(true);
    expect(toMessageView(record, false, undefined).simulated).toBe(true);
  });

  it('gives no message to the simulator once a real modem joins, unless the message names it', async () => {
    const { clock, harness, simulator } = await poolWithSimulator();
    // The USB modem enumerates after the core started (start at login).
    const real = harness.modem('usb');
    harness.devices.setOnline('usb', true);
    await harness.enqueue(...['a', 'b', 'c', 'd'].map((id) => ({ id })), {
      id: 'pinned',
      requestedDeviceId: 'sim',
    });
    await clock.advance(30 * SECOND);
    expect(sentIds(real)).toEqual(['a', 'b', 'c', 'd']);
    expect(sentIds(simulator)).toEqual(['pinned']);
    for (const id of ['a', 'b', 'c', 'd']) {
      expect(harness.message(id).simulated).toBeUndefined();
      expect(JSON.stringify(toMessageView(harness.message(id), false, undefined))).not.toContain('simulated');
    }
    expect(harness.message('pinned').simulated).toBe(true);
  });

  it('keeps the simulator out while the real modem is away for a moment: messages wait for it', async () => {
    const { clock, harness, simulator } = await poolWithSimulator();
    const real = harness.modem('usb');
    await harness.enqueue({ id: 'first' });
    await clock.advance(5 * SECOND);
    harness.devices.setOnline('usb', false);
    await harness.enqueue({ id: 'while-away' });
    await clock.advance(60 * SECOND);
    expect(sentIds(simulator)).toEqual([]);
    expect(harness.message('while-away').state).toBe('Pending');
    expect(harness.scheduler.status().holding?.reason).toBe('no-modem');
    harness.devices.setOnline('usb', true);
    await clock.advance(5 * SECOND);
    expect(sentIds(real)).toEqual(['first', 'while-away']);
  });
});
