import type { Clock } from '../../clock/clock.js';
import type { Logger } from '../../logging/logger.js';
import type { AuditTrail } from '../../store/auditTrail.js';
import type { RouteChange } from './defineRoute.js';

/**
 * Turns each change made through the API into an audit event naming the person who made it
 * (RouteTable's `onChange`). The answer has gone out already; a failed write is logged, and
 * the change it describes stands.
 */
export function auditRecorder(deps: {
  trail: Pick<AuditTrail, 'record'>;
  clock: Clock;
  logger: Logger;
}): (change: RouteChange) => void {
  const logger = deps.logger.child('audit');
  return (change) => {
    const { user } = change.principal;
    deps.trail
      .record({
        at: deps.clock.now(),
        actorId: user.id,
        actorName: user.name,
        action: change.action,
        summary: change.summary,
        subject: change.subject,
        fields: change.fields,
      })
      .catch((error: unknown) =>
        logger.error('could not store an audit event', { error, action: change.action }),
      );
  };
}
