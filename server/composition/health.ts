import type { RefusedPort } from '../contract/domain/portRefusal.js';
import type { DeviceDirectory } from '../devices/pool/deviceDirectory.js';
import { HealthService, type HealthThresholds } from '../services/health/healthService.js';
import type { CompositionContext } from './context.js';
import { releaseIdOf } from './packageVersion.js';

/**
 * GET /health. The queue fails at the enqueue limit (`maxPendingMessages`): from there
 * POST /messages answers 503, and the other thresholds come from the options.
 */
export function composeHealth(
  { storage, clock }: CompositionContext,
  deps: {
    devices: DeviceDirectory;
    thresholds: Omit<HealthThresholds, 'queueFail'>;
    maxPendingMessages: number;
    version: string;
    /** Default: the store's own probe of the data directory. */
    storageWritable?: () => Promise<boolean>;
    refusedPorts?: () => readonly RefusedPort[];
  },
): HealthService {
  return new HealthService({
    devices: deps.devices,
    messages: storage.messages,
    clock,
    storageWritable: deps.storageWritable ?? (() => storage.checkWritable()),
    version: deps.version,
    releaseId: releaseIdOf(deps.version),
    thresholds: { ...deps.thresholds, queueFail: deps.maxPendingMessages },
    ...(deps.refusedPorts ? { refusedPorts: deps.refusedPorts } : {}),
  });
}
