import type { GatewayOptions } from '../config/options.js';
import type { DeviceDirectory } from '../devices/pool/deviceDirectory.js';
import type { OptOutList } from '../services/desk/optOut/optOutList.js';
import { createMessageDecryptor } from '../services/messages/e2eEncryption.js';
import type { MessageLifecycle } from '../services/messages/messageLifecycle.js';
import { Scheduler, type SchedulerDeps } from '../services/scheduler/scheduler.js';
import type { CompositionContext } from './context.js';
import { sendingPolicyFrom } from './policies.js';

/**
 * The scheduler, built before the queue service that tells it of every queued message
 * (`QueueWatcher`), started (`scheduler.start()`, crash recovery first) once the modems joined the
 * pool. It reads the settings on every decision; a change wakes it.
 */
export function composeScheduler(
  context: CompositionContext,
  deps: {
    options: Pick<GatewayOptions, 'resendInterrupted' | 'timeZone'>;
    /** Whether the user paused sending (not a setting: it lasts until the next start). */
    paused: () => boolean;
    lifecycle: MessageLifecycle;
    devices: DeviceDirectory;
    optOuts: OptOutList;
    /** Routing and the SIM plans (composition/routing.ts). */
    routing: Pick<SchedulerDeps, 'mayRoute' | 'routeHold' | 'handedOver'>;
  },
): Scheduler {
  const { settings } = context;
  const { options } = deps;
  const scheduler = new Scheduler({
    repository: context.storage.messages,
    lifecycle: deps.lifecycle,
    devices: deps.devices,
    policy: () =>
      sendingPolicyFrom(settings.current(), {
        resendInterrupted: options.resendInterrupted,
        paused: deps.paused(),
        timeZone: options.timeZone,
      }),
    decrypt: createMessageDecryptor(() => settings.current().encryption.passphrase ?? undefined),
    isOptedOut: (phoneNumber) => deps.optOuts.isOptedOut(phoneNumber),
    ...deps.routing,
    beforeCommit: (task) => context.storage.sqlite.commits.beforeCommit(task),
    clock: context.clock,
    logger: context.logger,
  });
  settings.onChange(() => scheduler.wake());
  return scheduler;
}
