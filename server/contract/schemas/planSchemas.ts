import { z } from 'zod';
import { clockTime, timeZone } from './primitives.js';
import { MaxSimSlot } from './simTargetSchema.js';

/** SIM plans (server/services/plans/, docs/accounts-plans-routing.md "SIM plans"). */
export const MaxPlanCap = 10_000_000;

const periodKind = z.enum(['day', 'week', 'month']);
const cap = (what: string) =>
  z.number().int().min(0).max(MaxPlanCap).optional().describe(`most ${what}; absent: no such cap`);

export const simPlanSchema = z
  .object({
    perDay: cap('SMS (or parts) per day'),
    perWeek: cap('SMS (or parts) per week, from Monday'),
    perMonth: cap('SMS (or parts) per month, from the 1st'),
    recipients: z
      .object({ limit: z.number().int().min(0).max(MaxPlanCap), period: periodKind })
      .optional()
      .describe('most distinct recipients per period'),
    unit: z
      .enum(['messages', 'parts'])
      .default('messages')
      .describe('what the caps count: SMS, or SMS parts'),
    resetAt: clockTime.default('00:00').describe('when a period starts, on the wall clock of timeZone'),
    timeZone: timeZone.default('UTC'),
    whenCapped: z
      .enum(['hold', 'spill'])
      .default('hold')
      .describe(
        'a message routed only to this SIM once capped: waits (hold) or goes through another SIM (spill)',
      ),
  })
  .refine(
    (plan) =>
      plan.perDay !== undefined ||
      plan.perWeek !== undefined ||
      plan.perMonth !== undefined ||
      plan.recipients !== undefined,
    { message: 'name perDay, perWeek, perMonth or recipients', path: ['perDay'] },
  );

export const simSlotSchema = z.coerce.number().int().min(1).max(MaxSimSlot);

export const capUseViewSchema = z.object({
  cap: z.enum(['day', 'week', 'month', 'recipients']),
  period: periodKind,
  limit: z.number(),
  used: z.number(),
  resetsAt: z.string().describe('when the count starts again'),
});

export const simPlanViewSchema = z.object({
  deviceId: z.string(),
  sim: z.number().describe('the SIM slot, 1-based'),
  perDay: z.number().optional(),
  perWeek: z.number().optional(),
  perMonth: z.number().optional(),
  recipients: z.object({ limit: z.number(), period: periodKind }).optional(),
  unit: z.enum(['messages', 'parts']),
  resetAt: z.string(),
  timeZone: z.string(),
  whenCapped: z.enum(['hold', 'spill']),
  usage: z.array(capUseViewSchema).describe('each cap against what the SIM sent in its period'),
});
export type SimPlanView = z.infer<typeof simPlanViewSchema>;
