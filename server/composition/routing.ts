import { formattedNumberKey } from '../contract/domain/peerKey.js';
import { describeError } from '../errors/gatewayError.js';
import type { AppDirectory } from '../services/auth/appDirectory.js';
import { openPlanBook, type PlanBook, type PlanDocumentData } from '../services/plans/planBook.js';
import { createPlanGate } from '../services/plans/planGate.js';
import {
  type AlertWording,
  describePlanNotice,
  planAlerts,
  planNoticeEvent,
} from '../services/plans/planNotices.js';
import { createSimPlanUsage, type SimPlanUsage } from '../services/plans/simPlanUsage.js';
import { type OperatorData, openOperatorData } from '../services/routing/operatorData.js';
import {
  openRoutingBook,
  type RoutingBook,
  type RoutingDocumentData,
} from '../services/routing/routingBook.js';
import { createSchedulingHooks, type SchedulingHooks } from '../services/routing/schedulingHooks.js';
import { keptSendsMs, SqliteSendLog } from '../store/sendLog.js';
import type { CompositionContext } from './context.js';

export interface GatewayRouting {
  book: RoutingBook;
  /** The operator of a number's range, read at the first number an operator rule asks about. */
  operators: OperatorData;
  plans: PlanBook;
  planUsage: SimPlanUsage;
  /** The scheduler's hooks: routing rules, each app's allowed modems and the SIM plans. */
  scheduling: SchedulingHooks;
  /** The SIMs at or near a cap now, one line each, for the desktop's notifications. */
  planAlerts(wording: AlertWording): { near: string[]; reached: string[] };
  /** The app whose message this number received last (within the send log's days), if any. */
  lastAppTo(phoneNumber: string): string | undefined;
}

/**
 * The routing rules (the `routing` document), the SIM plans (`sim-plans`, their uses in the
 * database) and the hooks the scheduler asks. A plan's notices at 80 % and 100 % of a cap go
 * out as webhooks.
 */
export async function openRouting(
  context: CompositionContext,
  deps: { apps: Pick<AppDirectory, 'get'> },
): Promise<GatewayRouting> {
  const { storage, clock } = context;
  const logger = context.logger.child('plans');
  const book = openRoutingBook(await storage.openDocument<RoutingDocumentData>('routing', {}));
  const operators = openOperatorData({
    onUnreadable: (error) =>
      context.logger
        .child('routing')
        .error('operator data cannot be read: no operator rule matches any number', {
          error: describeError(error.cause ?? error),
        }),
  });
  const plans = openPlanBook(await storage.openDocument<PlanDocumentData>('sim-plans', {}));
  const sendLog = new SqliteSendLog(storage.sqlite.db, storage.sqlite.commits);
  const planUsage = createSimPlanUsage({
    book: plans,
    store: sendLog,
    clock,
    notify: (notice) => {
      logger.info(describePlanNotice(notice), { deviceId: notice.sim.deviceId, percent: notice.level });
      // In the turn that records the sends: the notice shares their commit.
      context.facts.announce('gateway:fact', planNoticeEvent(notice)).catch((error: unknown) => {
        logger.error('cannot store a SIM plan notice', { error: describeError(error) });
      });
    },
    onWriteFailed: (error) => logger.error('cannot store a SIM plan use', { error: describeError(error) }),
  });
  context.stops.add(async () => planUsage.stop());
  const gate = createPlanGate({ book: plans, usage: planUsage, numberKey: formattedNumberKey });
  return {
    book,
    operators,
    plans,
    planUsage,
    scheduling: createSchedulingHooks({ book, operators, apps: deps.apps, gate, usage: planUsage }),
    planAlerts: (wording) => planAlerts(plans, planUsage, wording),
    lastAppTo: (phoneNumber) => sendLog.lastAppTo(formattedNumberKey(phoneNumber), clock.now() - keptSendsMs),
  };
}
