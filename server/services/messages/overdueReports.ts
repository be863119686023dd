import type { Clock } from '../../clock/clock.js';
import type { AwaitingReports, MessageRepository } from '../../store/repositories.js';

/** A report later than this counts as missing: networks deliver nearly all within minutes. */
export const REPORT_OVERDUE_MS = 60 * 60_000;
/** Older missing reports are history, not a fault of the modem now (and keep the query small). */
const LOOKBACK_MS = 2 * 24 * 60 * 60_000;

/**
 * Per modem, the messages sent in the last two days that asked for a delivery report and have
 * none after an hour. A modem whose storage filled, or that stopped passing `+CDS` on, shows up
 * here while its messages would otherwise just stay Sent.
 */
export function overdueReports(
  repository: MessageRepository,
  clock: Clock,
): ReadonlyMap<string, Omit<AwaitingReports, 'deviceId'>> {
  const now = clock.now();
  const rows = repository.awaitingReports(now - LOOKBACK_MS, now - REPORT_OVERDUE_MS);
  return new Map(rows.map(({ deviceId, ...awaiting }) => [deviceId, awaiting]));
}
