import Papa from 'papaparse';
import { z } from 'zod';
import type { Clock } from '../../../clock/clock.js';
import { dateTime } from '../../../contract/schemas/primitives.js';
import type { UsageRow } from '../../../store/usageCounts.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/** Usage per app and per person (store/usageCounts.ts), as JSON or as a CSV file. */
export interface UsageRouteDependencies {
  usage: { between(from: number, to: number): UsageRow[] };
  clock: Clock;
}

const dayMs = 86_400_000;
const csvColumns: (keyof UsageRow)[] = ['day', 'senderId', 'senderName', 'messages', 'parts', 'failed'];

const usageRowSchema = z.object({
  day: z.string().describe('YYYY-MM-DD, UTC'),
  senderId: z
    .string()
    .describe('a person\'s id, or "app:<id>" for an app ("app:default": the owner login\'s)'),
  senderName: z.string(),
  messages: z.number(),
  parts: z.number().describe('SMS parts of the messages that have been sent'),
  failed: z.number(),
});

export function registerUsageRoutes(api: ApiBuilder, deps: UsageRouteDependencies): void {
  api.route({
    method: 'get',
    path: '/gateway/v1/usage',
    summary: 'Messages, SMS parts and failures per day, per app and per person; format=csv for a file',
    tag: 'Accounts',
    access: { scope: 'audit:read' },
    query: z.object({
      from: dateTime.optional().describe('default: 30 days before `to`'),
      to: dateTime.optional().describe('default: now'),
      format: z.enum(['json', 'csv']).default('json'),
    }),
    responses: {
      200: { description: 'one row per UTC day and sender', schema: z.array(usageRowSchema) },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ query, ctx }) => {
      // Exclusive: by default up to and including this millisecond.
      const to = query.to ?? deps.clock.now() + 1;
      const rows = deps.usage.between(query.from ?? to - 30 * dayMs, to);
      if (query.format === 'json') return { status: 200, body: rows };
      // Names are typed by people: a cell starting like a formula is quoted (OWASP CSV injection).
      const csv = Papa.unparse(
        { fields: csvColumns, data: rows.map((row) => csvColumns.map((c) => row[c])) },
        {
          escapeFormulae: true,
        },
      );
      // The body is set here, as text: a route's `body` is always sent as JSON.
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = `${csv}\r\n`;
      return { status: 200, headers: { 'Content-Disposition': 'attachment; filename="usage.csv"' } };
    },
  });
}
