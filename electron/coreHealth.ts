import type { GatewayAttention } from '../server/index.js';
import type { HealthReport, HealthStatus } from '../server/services/health/healthService.js';

/** What the core reports to the shell about its work, from its readiness report (GET /health). */
export interface CoreHealth {
  /** Messages waiting to be sent, or being handed to a modem. */
  pending: number;
  /** Checks that warn or fail, by name ("modems:connected"), with their description. */
  problems: { check: string; status: Exclude<HealthStatus, 'pass'>; description: string }[];
}

/**
 * The part of the report the shell acts on, with what needs a person besides it (failing
 * webhooks, overdue delivery reports). `modems:real` is left out: it warns while only the
 * simulated modem runs, which in the desktop app is the user's own choice (demo mode).
 */
export function coreHealthOf(
  report: HealthReport,
  attention: GatewayAttention = { webhookFailuresLastHour: 0, overdueReports: 0 },
): CoreHealth {
  const problems: CoreHealth['problems'] = [];
  for (const [check, result] of Object.entries(report.checks)) {
    if (result.status === 'pass' || check === 'modems:real') continue;
    problems.push({ check, status: result.status, description: result.description });
  }
  if (attention.webhookFailuresLastHour > 0) {
    const last = attention.lastWebhookError ? ` (last: ${attention.lastWebhookError})` : '';
    problems.push({
      check: 'webhooks:failed',
      status: 'warn',
      description: `${attention.webhookFailuresLastHour} webhook deliveries failed in the last hour${last}`,
    });
  }
  if (attention.overdueReports > 0) {
    problems.push({
      check: 'reports:overdue',
      status: 'warn',
      description: `${attention.overdueReports} sent messages have had no delivery report for over an hour`,
    });
  }
  const plans = attention.planCaps;
  if (plans && plans.reached.length > 0) {
    problems.push({ check: 'plans:cap-reached', status: 'warn', description: plans.reached.join('\n') });
  }
  if (plans && plans.near.length > 0) {
    problems.push({ check: 'plans:near-cap', status: 'warn', description: plans.near.join('\n') });
  }
  return { pending: report.checks['messages:queue']?.observedValue ?? 0, problems };
}

export function isCoreHealth(value: unknown): value is CoreHealth {
  if (typeof value !== 'object' || value === null) return false;
  const { pending, problems } = value as { pending?: unknown; problems?: unknown };
  return typeof pending === 'number' && Array.isArray(problems);
}
