import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { GatewayMetrics } from '../../../services/metrics/gatewayMetrics.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/**
 * GET /metrics (docs/metrics.md): the Prometheus text format, for a scraper holding a token with
 * `metrics:read` and nothing else. Off by default: until `metrics.enabled` is on it answers 404,
 * so a gateway that nobody scrapes shows no process details to anyone.
 */
export function registerMetricsRoutes(
  api: ApiBuilder,
  deps: { metrics: GatewayMetrics; enabled: () => boolean },
): void {
  api.route({
    method: 'get',
    path: '/metrics',
    rootOnly: true,
    summary: 'Prometheus metrics: queue, sends, modems, SIM plans, outbox and the process',
    tag: 'System',
    access: { scope: 'metrics:read' },
    responses: {
      200: { description: 'The Prometheus text exposition format, version 0.0.4' },
      ...errorResponses(404, ...authErrors),
    },
    async handle({ ctx }) {
      if (!deps.enabled()) {
        throw new GatewayError(
          ErrorCode.NotFound,
          'metrics.enabled: the metrics are off (Settings, Health and logs)',
          {
            field: 'metrics.enabled',
          },
        );
      }
      // The body is set here, as text: a route's `body` is always sent as JSON.
      ctx.type = deps.metrics.contentType;
      ctx.body = await deps.metrics.render();
      return { status: 200 };
    },
  });
}
