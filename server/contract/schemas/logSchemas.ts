import { z } from 'zod';
import { LogLevels } from '../domain/logLevels.js';
import { queryInteger, timeRangeQuery } from './primitives.js';

/** GET /logs: the spec's from/to, plus our filters for the UI's log view. */
export const MaxLogEntries = 5000;

export const logQuerySchema = z.object({
  ...timeRangeQuery,
  priority: z.enum(LogLevels).optional(),
  module: z.string().min(1).optional(),
  limit: queryInteger(1, MaxLogEntries).default(1000),
});
