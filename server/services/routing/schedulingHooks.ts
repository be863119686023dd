import { formattedNumberKey } from '../../contract/domain/peerKey.js';
import { type AppDirectory, defaultAppId } from '../auth/appDirectory.js';
import { partsPerRecipient } from '../plans/messageParts.js';
import type { PlanGate } from '../plans/planGate.js';
import type { SimPlanUsage } from '../plans/simPlanUsage.js';
import type { SchedulerDeps } from '../scheduler/scheduler.js';
import type { OperatorData } from './operatorData.js';
import { createRouteGuard } from './routeGuard.js';
import { appHold, routingHold } from './routeHold.js';
import type { RoutingBook } from './routingBook.js';

export type SchedulingHooks = Required<Pick<SchedulerDeps, 'mayRoute' | 'routeHold' | 'handedOver'>>;

/**
 * What the scheduler asks of routing: which SIM slots of a modem may take a message (the app's
 * allowed modems, the routing rules, the SIM plans' caps), why a message waits, and the count
 * of each hand-over against its SIM's plan.
 */
export function createSchedulingHooks(deps: {
  book: RoutingBook;
  operators: OperatorData;
  apps: Pick<AppDirectory, 'get'>;
  gate: PlanGate;
  usage: Pick<SimPlanUsage, 'record'>;
}): SchedulingHooks {
  const { book, operators, apps, gate } = deps;
  return {
    mayRoute: createRouteGuard({
      book,
      operators,
      allowedTargets: (appId) => apps.get(appId)?.allowedDeviceIds,
      plans: gate,
    }),
    // The app's own bounds first, then the rule within them: a cap on some other modem is not
    // why it waits.
    routeHold: (message, able, online) => {
      const app = message.appId === undefined ? undefined : apps.get(message.appId);
      return (
        appHold(app, message, able, online) ??
        routingHold(book, operators, message, able, online, app?.allowedDeviceIds) ??
        gate.hold(message, able)
      );
    },
    handedOver: (message, deviceId, simNumber) =>
      deps.usage.record(
        { deviceId, sim: simNumber },
        {
          recipients: message.recipients
            .filter((recipient) => recipient.state === 'Pending')
            .map((recipient) => formattedNumberKey(recipient.phoneNumber)),
          parts: partsPerRecipient(message.content),
          appId: message.appId ?? defaultAppId,
        },
      ),
  };
}
