import { type HealthService, healthReportSchema } from '../../health/healthService.js';
import type { ApiBuilder } from '../defineRoute.js';

/** GET /health (public): 200 for pass and warn, 503 for fail (spec: Endpoints). */
export function registerHealthRoutes(api: ApiBuilder, deps: { health: HealthService }): void {
  api.route({
    method: 'get',
    path: '/health',
    summary: 'Readiness probe',
    tag: 'System',
    access: 'public',
    responses: {
      200: { description: 'Ready (pass or warn)', schema: healthReportSchema },
      503: { description: 'Not ready (fail)', schema: healthReportSchema },
    },
    async handle() {
      const report = await deps.health.report();
      return { status: report.status === 'fail' ? 503 : 200, body: report };
    },
  });
}
