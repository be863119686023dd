import { describe, expect, it } from 'vitest';
import { SleepGuard } from '../../electron/sleepGuard.js';
import { silentLogger } from '../../server/logging/logger.js';
import { FakeEmitter, FakePowerSaveBlocker } from './support/electronDouble.js';

function setup() {
  const blocker = new FakePowerSaveBlocker();
  const powerMonitor = new FakeEmitter();
  const rechecks: string[] = [];
  const guard = new SleepGuard({
    blocker,
    powerMonitor,
    recheckModems: () => rechecks.push('recheck'),
    logger: silentLogger,
  });
  return { blocker, powerMonitor, rechecks, guard };
}

describe('sleep', () => {
  it('is held off while messages are queued, when the user asked for it, and only then', () => {
    const { blocker, guard } = setup();
    guard.queueChanged(5);
    expect([...blocker.held.values()]).toEqual([]);
    guard.setEnabled(true);
    expect([...blocker.held.values()]).toEqual(['prevent-app-suspension']);
    guard.queueChanged(2);
    expect(blocker.held.size).toBe(1);
    guard.queueChanged(0);
    expect(blocker.held.size).toBe(0);
    guard.queueChanged(1);
    guard.queueChanged(undefined);
    expect(blocker.held.size).toBe(0);
    guard.queueChanged(3);
    guard.setEnabled(false);
    expect(blocker.held.size).toBe(0);
  });

  it('is followed by an immediate check of the modems', () => {
    const { powerMonitor, rechecks } = setup();
    powerMonitor.emit('resume');
    expect(rechecks).toEqual(['recheck']);
  });
});
