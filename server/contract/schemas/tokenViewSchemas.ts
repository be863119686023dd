import { z } from 'zod';

/**
 * GET /gateway/v1/tokens (server/doors/http/routes/tokenRoutes.ts): one entry per live token family —
 * an issued pair and every pair rotated from it. Pure, so the UI takes its type from here.
 */
export const issuedTokenViewSchema = z.object({
  id: z.string().describe('the id given when the pair was issued; DELETE /auth/token/{id} ends the family'),
  scopes: z.array(z.string()),
  issuedBy: z
    .enum(['window', 'password', 'token'])
    .describe("the desktop window's sign-in, the Basic password, or another token"),
  issuedAt: z.string().describe('ISO 8601'),
  expiresAt: z
    .string()
    .describe('ISO 8601; no token of the family is valid after it, however often refreshed'),
  refreshedAt: z.string().optional().describe('ISO 8601; the last refresh'),
  lastUsedAt: z.string().optional().describe('ISO 8601; the last request an access token of it made'),
  current: z.boolean().describe('the token of this request belongs to it'),
});

export type IssuedTokenView = z.output<typeof issuedTokenViewSchema>;
