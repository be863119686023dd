import { z } from 'zod';

/**
 * The upstream error body (docs/decisions.md#errors-and-json): `{"message": "..."}`, plus our
 * `field` when the error names the request field or setting at fault; clients that know only
 * `message` are unaffected.
 */
export const errorBodySchema = z.object({
  message: z.string(),
  field: z
    .string()
    .optional()
    .describe('The request field or setting at fault, as a path: `phoneNumbers[0]`, `messages.limit_value`'),
});
export type ErrorBody = z.output<typeof errorBodySchema>;
