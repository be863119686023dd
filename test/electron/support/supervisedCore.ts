import { CoreSupervisor } from '../../../electron/coreSupervisor.js';
import { ManualClock } from '../../../server/clock/manualClock.js';
import { silentLogger } from '../../../server/logging/logger.js';
import { fakeUtilityProcess } from './electronDouble.js';

/**
 * A CoreSupervisor as main.ts builds it, with the default restart policy, forking into the
 * utility-process double on a manual clock; `output` takes what the core prints.
 */
export function supervisedCore(options: { clock?: ManualClock; output?: (chunk: string) => void } = {}) {
  const clock = options.clock ?? new ManualClock();
  const electron = fakeUtilityProcess();
  const core = new CoreSupervisor({
    fork: electron.fork,
    entry: 'coreProcess.js',
    args: () => [],
    clock,
    logger: silentLogger,
    output: options.output ?? (() => undefined),
  });
  return { clock, electron, core };
}
