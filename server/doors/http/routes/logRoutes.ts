import { z } from 'zod';
import { toIsoWithOffset } from '../../../clock/isoTime.js';
import { LogLevels } from '../../../contract/domain/logLevels.js';
import { logQuerySchema } from '../../../contract/schemas/logSchemas.js';
import type { LogRepository, StoredLogEntry } from '../../../store/repositories.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/** Upstream's log entry (docs/decisions.md#logs-and-health). */
export const logEntryViewSchema = z.object({
  id: z.number().int(),
  priority: z.enum(LogLevels),
  module: z.string(),
  message: z.string(),
  /** Values as strings, as upstream's clients type them (`Record<string, string>`). */
  context: z.record(z.string(), z.string()).optional(),
  createdAt: z.string(),
});

export function toLogEntryView(entry: StoredLogEntry): z.output<typeof logEntryViewSchema> {
  const view: z.output<typeof logEntryViewSchema> = {
    id: entry.id,
    priority: entry.priority,
    module: entry.module,
    message: entry.message,
    createdAt: toIsoWithOffset(entry.createdAt),
  };
  if (entry.context) {
    view.context = Object.fromEntries(
      Object.entries(entry.context).map(([key, value]) => [
        key,
        typeof value === 'string' ? value : JSON.stringify(value),
      ]),
    );
  }
  return view;
}

/** GET /logs: entries created after `from` and before `to`, oldest first. */
export function registerLogRoutes(api: ApiBuilder, deps: { logs: Pick<LogRepository, 'list'> }): void {
  api.route({
    method: 'get',
    path: '/logs',
    summary: 'Read log entries, oldest first',
    tag: 'Logs',
    access: { scope: 'logs:read' },
    query: logQuerySchema,
    responses: {
      200: { description: 'Log entries', schema: z.array(logEntryViewSchema) },
      ...errorResponses(400, ...authErrors),
    },
    async handle({ query }) {
      return { status: 200, body: deps.logs.list(query).map(toLogEntryView) };
    },
  });
}
