import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { watchForNewPorts } from '../../server/composition/portWatcher.js';
import { silentLogger } from '../../server/logging/logger.js';

describe('watching for modems plugged in after start', () => {
  it('probes only when a new port path appears, not on every scan', async () => {
    const clock = new ManualClock();
    let ports = ['/dev/ttyS0'];
    let discoveries = 0;
    const stop = watchForNewPorts(
      {
        listPorts: async () => ports.map((path) => ({ path })),
        discover: async () => {
          discoveries++;
          return 1;
        },
        clock,
        logger: silentLogger,
        intervalMs: 1_000,
      },
      ['/dev/ttyS0'],
    );
    await clock.advance(5_000);
    expect(discoveries).toBe(0);

    ports = ['/dev/ttyS0', '/dev/ttyUSB0', '/dev/ttyUSB1'];
    await clock.advance(1_000);
    expect(discoveries).toBe(1);
    await clock.advance(5_000);
    expect(discoveries).toBe(1);

    // Unplugged and plugged in again: the path is new again.
    ports = ['/dev/ttyS0'];
    await clock.advance(1_000);
    ports = ['/dev/ttyS0', '/dev/ttyUSB0'];
    await clock.advance(1_000);
    expect(discoveries).toBe(2);

    stop();
    ports = ['/dev/ttyS0', '/dev/ttyACM0'];
    await clock.advance(5_000);
    expect(discoveries).toBe(2);
  });
});
