import {
  type HealthReport,
  type HealthService,
  healthReportSchema,
} from '../../../services/health/healthService.js';
import type { ApiBuilder } from '../defineRoute.js';

interface Probe {
  path: string;
  summary: string;
  report(health: HealthService): Promise<HealthReport> | HealthReport;
}

/**
 * GET /health (public, spec: Endpoints): readiness. The app's OpenAPI document also lists
 * /health/live, /health/ready and /health/startup, and client-py calls them
 * (`android_sms_gateway/client.py` liveness_check, readiness_check, startup_check).
 */
const probes: readonly Probe[] = [
  { path: '/health', summary: 'Readiness probe', report: (health) => health.report() },
  { path: '/health/ready', summary: 'Readiness probe', report: (health) => health.report() },
  { path: '/health/live', summary: 'Liveness probe', report: (health) => health.running() },
  { path: '/health/startup', summary: 'Startup probe', report: (health) => health.running() },
];

/** Each probe answers 200 for pass and warn, 503 for fail. */
export function registerHealthRoutes(api: ApiBuilder, deps: { health: HealthService }): void {
  for (const probe of probes) {
    api.route({
      method: 'get',
      path: probe.path,
      summary: probe.summary,
      tag: 'System',
      access: 'public',
      responses: {
        200: { description: 'Pass or warn', schema: healthReportSchema },
        503: { description: 'Fail', schema: healthReportSchema },
      },
      async handle() {
        const report = await probe.report(deps.health);
        return { status: report.status === 'fail' ? 503 : 200, body: report };
      },
    });
  }
}
