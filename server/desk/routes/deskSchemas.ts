import { z } from 'zod';

/** Schemas shared by the desk's routes (`/gateway/v1/contacts`, `groups`, `templates`, `campaigns`). */
export const errorSchema = z.object({ message: z.string() });

export function accessResponses(scope: string) {
  return {
    401: { description: 'missing or wrong credentials', schema: errorSchema },
    403: { description: `the token lacks ${scope}`, schema: errorSchema },
  };
}
