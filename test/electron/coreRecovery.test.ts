import { describe, expect, it } from 'vitest';
import { CoreNotices, type Notice } from '../../electron/coreStatus.js';
import { GatewayTray } from '../../electron/tray.js';
import { ManualClock } from '../../server/clock/manualClock.js';
import { FakeTray } from './support/electronDouble.js';
import { supervisedCore } from './support/supervisedCore.js';

const ready = { type: 'ready', baseUrl: 'http://127.0.0.1:8080', sessionToken: 't', simulated: false };
const clockTime = (epochMs: number) => new Date(epochMs).toISOString().slice(11, 19);

/** The shell as main.ts wires it: the supervisor's states drive the tray and the notifications. */
function shell() {
  const { clock, electron, core } = supervisedCore({ clock: new ManualClock(Date.UTC(2026, 0, 1, 9, 0, 0)) });
  const trayIcon = new FakeTray();
  const asked: string[] = [];
  const tray = new GatewayTray(
    trayIcon,
    {
      toggleWindow: () => asked.push('toggle'),
      setSendingPaused: (paused) => asked.push(`paused ${paused}`),
      retryNow: () => core.retryNow(),
      stopRetrying: () => core.stopRetrying(),
      openLogsFolder: () => asked.push('logs'),
      quit: () => asked.push('quit'),
    },
    clockTime,
  );
  const notices: Notice[] = [];
  const coreNotices = new CoreNotices();
  core.on('state', (state) => {
    tray.showCore(state);
    const notice = coreNotices.noticeFor(state);
    if (notice) notices.push(notice);
  });
  const latest = () => {
    const child = electron.children.at(-1);
    if (!child) throw new Error('no core started');
    return child;
  };
  return { clock, core, trayIcon, notices, children: electron.children, latest };
}

describe('a core that keeps crashing', () => {
  it('is retried after growing pauses, with the state in the tray and one notification, never a dead end', async () => {
    const { clock, trayIcon, notices, children, latest, core } = shell();
    core.start();
    latest().reply(ready);
    expect(trayIcon.alert).toBe(false);
    expect(trayIcon.labels()).toContain('Pause sending');

    const pauses: number[] = [];
    for (let crash = 1; crash <= 5; crash++) {
      latest().exit(139);
      expect(trayIcon.alert).toBe(true);
      expect(trayIcon.labels()).toEqual(expect.arrayContaining(['Start the gateway now', 'Stop retrying']));
      expect(trayIcon.labels()).not.toContain('Pause sending');
      const crashedAt = clock.now();
      const before = children.length;
      while (children.length === before) await clock.advance(250);
      pauses.push(clock.now() - crashedAt);
      // Each new attempt starts, gets ready and crashes again at once: no healthy run between.
      latest().reply(ready);
    }
    expect(pauses).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
    // Down once, up five times: one "stopped" and one "running again" per outage.
    expect(notices.map((notice) => notice.title)).toEqual([
      'SMS gateway stopped',
      'SMS gateway running again',
      'SMS gateway stopped',
      'SMS gateway running again',
      'SMS gateway stopped',
      'SMS gateway running again',
      'SMS gateway stopped',
      'SMS gateway running again',
      'SMS gateway stopped',
      'SMS gateway running again',
    ]);
    expect(trayIcon.alert).toBe(false);
  });

  it('shows when the next attempt is due, and lets a person stop the attempts and start again', async () => {
    const { clock, trayIcon, children, latest, core } = shell();
    core.start();
    latest().reply(ready);
    latest().exit(1);
    expect(trayIcon.toolTip).toContain('trying again at 09:00:01 (attempt 2)');

    trayIcon.choose('Stop retrying');
    expect(trayIcon.labels()).toContain('Gateway stopped: not retrying');
    expect(trayIcon.alert).toBe(true);
    await clock.advance(60 * 60_000);
    expect(children).toHaveLength(1);

    trayIcon.choose('Start the gateway');
    expect(children).toHaveLength(2);
    latest().reply(ready);
    expect(trayIcon.labels()[0]).toBe('Gateway running');
  });

  it('keeps trying a core that cannot start, and says so once', async () => {
    const { clock, notices, children, latest, core } = shell();
    core.start();
    for (let attempt = 0; attempt < 12; attempt++) {
      latest().reply({
        type: 'start-failed',
        failure: { kind: 'data-dir-locked', message: 'in use by pid 42' },
      });
      const before = children.length;
      while (children.length === before) await clock.advance(60_000);
    }
    expect(children).toHaveLength(13);
    expect(notices).toEqual([
      { title: 'SMS gateway could not start', body: expect.stringContaining('in use by pid 42') },
    ]);
  });
});
