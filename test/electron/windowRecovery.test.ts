import { describe, expect, it } from 'vitest';
import type { Notice } from '../../electron/coreStatus.js';
import { WindowRecovery } from '../../electron/windowRecovery.js';
import { ManualClock } from '../../server/clock/manualClock.js';
import { silentLogger } from '../../server/logging/logger.js';
import { FakeWebContents } from './support/electronDouble.js';

function setup() {
  const clock = new ManualClock();
  const contents = new FakeWebContents();
  const notices: Notice[] = [];
  const recovery = new WindowRecovery(contents, {
    clock,
    logger: silentLogger,
    notify: (notice) => notices.push(notice),
    hangGraceMs: 30_000,
  });
  return { clock, contents, notices, recovery };
}

describe('a window that stays open for months', () => {
  it('reloads its page after the renderer crashed, and says so', async () => {
    const { clock, contents, notices } = setup();
    contents.crash('crashed');
    expect(contents.reloads).toBe(0);
    await clock.advance(1_000);
    expect(contents.reloads).toBe(1);
    expect(contents.renderer).toBe('alive');
    expect(notices).toEqual([
      { title: 'Window reloaded', body: expect.stringContaining('stopped (crashed)') },
    ]);
  });

  it('waits longer between reloads when the page crashes again at once, and short again after a calm spell', async () => {
    const { clock, contents } = setup();
    const waits: number[] = [];
    for (let crash = 0; crash < 4; crash++) {
      contents.crash('oom');
      const from = clock.now();
      const before = contents.reloads;
      while (contents.reloads === before) await clock.advance(100);
      waits.push(clock.now() - from);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000]);
    await clock.advance(10 * 60_000);
    contents.crash('crashed');
    await clock.advance(1_000);
    expect(contents.reloads).toBe(5);
  });

  it('ends and reloads a page that stays hung past the grace period', async () => {
    const { clock, contents, notices } = setup();
    contents.hang();
    await clock.advance(29_999);
    expect(contents.renderer).toBe('hung');
    await clock.advance(1);
    expect(contents.renderer).toBe('gone');
    await clock.advance(1_000);
    expect(contents.reloads).toBe(1);
    expect(notices[0]?.body).toContain('stopped responding');
  });

  it('leaves a page alone that answers again in time, and one that closed cleanly', async () => {
    const { clock, contents, notices } = setup();
    contents.hang();
    await clock.advance(10_000);
    contents.recover();
    await clock.advance(60_000);
    contents.crash('clean-exit');
    await clock.advance(60_000);
    expect(contents.reloads).toBe(0);
    expect(notices).toEqual([]);
  });

  it('reloads nothing once the window is closed for good', async () => {
    const { clock, contents, recovery } = setup();
    contents.crash('crashed');
    recovery.dispose();
    await clock.advance(60_000);
    expect(contents.reloads).toBe(0);
  });
});
