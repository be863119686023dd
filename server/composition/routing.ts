import type { AppDirectory } from '../auth/appDirectory.js';
import { createRouteGuard } from '../routing/routeGuard.js';
import { openRoutingBook, type RoutingBook, type RoutingDocumentData } from '../routing/routingBook.js';
import type { SchedulerDeps } from '../scheduler/scheduler.js';
import type { CompositionContext } from './context.js';

export interface GatewayRouting {
  book: RoutingBook;
  /** The scheduler's hook: routing rules and each app's allowed modems. */
  mayRoute: NonNullable<SchedulerDeps['mayRoute']>;
}

/** The routing rules (the `routing` document) and the hook the scheduler asks. */
export async function openRouting(
  context: CompositionContext,
  deps: { apps: Pick<AppDirectory, 'get'> },
): Promise<GatewayRouting> {
  const book = openRoutingBook(await context.storage.openDocument<RoutingDocumentData>('routing', {}));
  return {
    book,
    mayRoute: createRouteGuard({ book, allowedDevices: (appId) => deps.apps.get(appId)?.allowedDeviceIds }),
  };
}
