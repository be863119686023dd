import { z } from 'zod';

/** GET /gateway/v1/database: what the Settings screen shows next to the retention settings. */
export const databaseViewSchema = z.object({
  bytes: z.number().int().describe('size of gateway.db on disk'),
  messages: z.number().int().describe('messages in the history'),
  incoming: z.number().int().describe('received messages in the inbox'),
});
