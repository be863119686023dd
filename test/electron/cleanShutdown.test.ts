import { describe, expect, it } from 'vitest';
import { CleanShutdown, sessionEndBudgetMs } from '../../electron/cleanShutdown.js';
import { ManualClock } from '../../server/clock/manualClock.js';
import { silentLogger } from '../../server/logging/logger.js';
import { FakeEmitter, FakeEvent } from './support/electronDouble.js';

function setup(options: { stopFails?: boolean } = {}) {
  const calls: string[] = [];
  let finishStop: () => void = () => undefined;
  let running = true;
  const clock = new ManualClock();
  const shutdown = new CleanShutdown({
    coreRunning: () => running,
    stopCore: () => {
      calls.push('stop core');
      return new Promise<void>((resolve, reject) => {
        finishStop = () => {
          running = false;
          if (options.stopFails) reject(new Error('journal busy'));
          else resolve();
        };
      });
    },
    quit: () => calls.push('quit'),
    exit: () => calls.push('exit'),
    clock,
    logger: silentLogger,
  });
  const settle = async () => {
    finishStop();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { shutdown, calls, settle, clock };
}

describe('the clean stop of the desktop app', () => {
  it('delays a Linux or macOS shutdown until the core stopped, then exits', async () => {
    const { shutdown, calls, settle } = setup();
    const powerMonitor = new FakeEmitter();
    shutdown.watchPowerMonitor(powerMonitor);
    const event = powerMonitor.fire('shutdown');
    expect(event.defaultPrevented).toBe(true);
    expect(calls).toEqual(['stop core']);
    await settle();
    expect(calls).toEqual(['stop core', 'exit']);
  });

  it('lets Windows ask about ending the session without a veto, and runs on when the shutdown is cancelled', async () => {
    const { shutdown, calls, settle } = setup();
    const window = new FakeEmitter();
    shutdown.watchWindow(window);
    expect(window.fire('query-session-end').defaultPrevented).toBe(false);
    await settle();
    expect(calls).toEqual([]);
    expect(shutdown.inProgress).toBe(false);
  });

  it('stops the core once when the Windows session then ends, asked or not', async () => {
    const { shutdown, calls, settle } = setup();
    const window = new FakeEmitter();
    shutdown.watchWindow(window);
    window.fire('query-session-end');
    window.fire('session-end');
    window.fire('session-end');
    await settle();
    expect(calls).toEqual(['stop core', 'quit', 'quit', 'exit']);
  });

  it('stops the core on a Windows session end that came without the question', async () => {
    const { shutdown, calls, settle } = setup();
    const window = new FakeEmitter();
    shutdown.watchWindow(window);
    window.fire('session-end');
    await settle();
    expect(calls).toEqual(['stop core', 'quit', 'exit']);
  });

  it('is quitting before a session-end listener returns, so Electron waits for the stop (its order of events)', async () => {
    const { shutdown, calls, settle } = setup();
    const window = new FakeEmitter();
    shutdown.watchWindow(window);
    // Electron ends the process right after the session-end listeners unless the app quits.
    window.fire('session-end');
    expect(calls).toEqual(['stop core', 'quit']);
    // app.quit() then brings will-quit, which is held until the stop is done.
    const willQuit = new FakeEvent();
    shutdown.onWillQuit(willQuit);
    expect(willQuit.defaultPrevented).toBe(true);
    expect(calls).toEqual(['stop core', 'quit']);
    await settle();
    expect(calls).toEqual(['stop core', 'quit', 'exit']);
  });

  it('exits within the time Windows gives when the core is slow to stop', async () => {
    const { shutdown, calls, clock } = setup();
    const window = new FakeEmitter();
    shutdown.watchWindow(window);
    window.fire('session-end');
    shutdown.onWillQuit(new FakeEvent());
    await clock.advance(sessionEndBudgetMs - 1);
    expect(calls).toEqual(['stop core', 'quit']);
    await clock.advance(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual(['stop core', 'quit', 'exit']);
  });

  it('holds Quit until the core stopped, and lets it through when no core runs', async () => {
    const { shutdown, calls, settle } = setup();
    const quit = new FakeEvent();
    shutdown.onWillQuit(quit);
    expect(quit.defaultPrevented).toBe(true);
    await settle();
    expect(calls).toEqual(['stop core', 'exit']);

    const idle = new CleanShutdown({
      coreRunning: () => false,
      stopCore: async () => undefined,
      quit: () => undefined,
      exit: () => undefined,
      clock: new ManualClock(),
      logger: silentLogger,
    });
    const untouched = new FakeEvent();
    idle.onWillQuit(untouched);
    expect(untouched.defaultPrevented).toBe(false);
  });

  it('still exits when the core does not stop cleanly', async () => {
    const { shutdown, calls, settle } = setup({ stopFails: true });
    shutdown.onWillQuit(new FakeEvent());
    await settle();
    expect(calls).toEqual(['stop core', 'exit']);
  });
});
