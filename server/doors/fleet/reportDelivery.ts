import type { AttemptOutcome, OutboxJob } from '../../contract/domain/outboxJob.js';
import { describeError, ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Outbox } from '../../services/outbox/outbox.js';
import type { MobilePatchMessageItem } from './mobileApi.js';
import type { ServerClient } from './serverClient.js';

/** Reports per PATCH: upstream takes an array and applies it in order. */
const maxBatch = 100;

export interface ReportDeliveryDeps {
  outbox: Outbox;
  client: ServerClient;
  deviceToken: string;
  /** Each answer or failure, for the link's status (undefined: the server took the batch). */
  onExchange(error?: unknown): void;
}

/**
 * Empties the outbox's state reports into `PATCH /message`, oldest first, a batch at a time
 * (a strict lane, so order holds across requests too), retried with the outbox's back-off until
 * the server takes them — at once when the link sees the server answer again (`Outbox.wake`).
 * A rejected token waits for the user. A report the server refuses as malformed (400) can never
 * be taken: it is sent alone to find it, then given up rather than block every report behind it.
 * Answers the stop.
 */
export function serveReports(deps: ReportDeliveryDeps): () => Promise<void> {
  const patch = async (jobs: readonly OutboxJob<MobilePatchMessageItem>[]): Promise<AttemptOutcome[]> => {
    try {
      await deps.client.patchMessages(
        deps.deviceToken,
        jobs.map((job) => job.payload),
      );
    } catch (error) {
      if (isGatewayError(error, ErrorCode.FleetProtocol)) {
        if (jobs.length > 1) return patchOneByOne(jobs);
        return [{ kind: 'failed', error: `the private server refused it: ${error.message}`, final: true }];
      }
      deps.onExchange(error);
      if (isGatewayError(error, ErrorCode.FleetRejected))
        return jobs.map(() => ({ kind: 'wait', reason: 'the private server rejected this gateway' }));
      return jobs.map(() => ({ kind: 'failed', error: describeError(error) }));
    }
    deps.onExchange();
    return jobs.map(() => ({ kind: 'done' }));
  };
  const patchOneByOne = async (
    jobs: readonly OutboxJob<MobilePatchMessageItem>[],
  ): Promise<AttemptOutcome[]> => {
    const outcomes: AttemptOutcome[] = [];
    for (const job of jobs) {
      const [outcome] = await patch([job]);
      if (!outcome) break;
      outcomes.push(outcome);
      // Not taken for a reason other than its own: the rest stay behind it, untried.
      if (outcome.kind !== 'done' && !(outcome.kind === 'failed' && outcome.final)) break;
    }
    for (const job of jobs.slice(outcomes.length))
      outcomes.push({ kind: 'wait', reason: 'behind an earlier report', retryAt: job.nextAttemptAt });
    return outcomes;
  };
  return deps.outbox.serve<MobilePatchMessageItem>('fleet-report', {
    lanes: { order: 'strict', batch: maxBatch },
    attempt: patch,
    // Reports are never given up for the server being away: they wait for it.
    maxAttempts: () => Number.POSITIVE_INFINITY,
    describe: (job) => `the state report of message ${job.payload.id}`,
  });
}
