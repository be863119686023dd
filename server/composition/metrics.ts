import type { DeviceInfo } from '../contract/domain/device.js';
import type { HttpExtension } from '../doors/http/app.js';
import { registerMetricsRoutes } from '../doors/http/routes/metricsRoutes.js';
import { createGatewayMetrics, type PlanUseSample } from '../services/metrics/gatewayMetrics.js';
import type { PlanBook } from '../services/plans/planBook.js';
import type { SimPlanUsage } from '../services/plans/simPlanUsage.js';
import type { SchedulerStatus } from '../services/scheduler/scheduler.js';
import type { SwitchedListener } from '../services/settings/switchedListener.js';
import type { CompositionContext } from './context.js';

/**
 * The Prometheus metrics (docs/metrics.md) and their route, read from the parts that already
 * know each figure: the store's kept counts, the scheduler, the outbox, the pool, the SIM plans
 * and the two listeners.
 */
export function metricsExtension(
  context: CompositionContext,
  parts: {
    scheduler: { status(): SchedulerStatus };
    devices: { list(): DeviceInfo[] };
    plans: { plans: Pick<PlanBook, 'list'>; usage: Pick<SimPlanUsage, 'usage'> };
    smtp: SwitchedListener;
    smpp: SwitchedListener;
  },
): HttpExtension {
  const { clock, storage, outbox, settings } = context;
  const metrics = createGatewayMetrics(
    {
      now: () => clock.now(),
      messagesInState: (state) => storage.messages.countInState(state),
      // The first in FIFO order is the one accepted longest ago.
      oldestWaitingSince: () => storage.messages.waiting('FIFO', clock.now(), 1)[0]?.record.createdAt,
      sending: () => parts.scheduler.status().sending,
      outbox: () => outbox.status(),
      devices: () => parts.devices.list(),
      planUse: () =>
        parts.plans.plans.list().flatMap((plan) =>
          parts.plans.usage.usage(plan).map(
            (use): PlanUseSample => ({
              deviceId: plan.deviceId,
              sim: plan.sim,
              cap: use.cap.name,
              used: use.used,
              limit: use.cap.limit,
            }),
          ),
        ),
      sessions: () => ({ smtp: parts.smtp.openSessions(), smpp: parts.smpp.openSessions() }),
    },
    context.events,
  );
  context.stops.add(async () => metrics.stop());
  return (api) =>
    registerMetricsRoutes(api, { metrics, enabled: () => settings.current().metrics.enabled === true });
}
