import { z } from 'zod';
import { simTargetSchema, simTargetsSchema } from './simTargetSchema.js';

/** Routing rules (server/routing/, docs/accounts-plans-routing.md "Routing"). */
export const routingRuleSchema = z.object({
  id: z.string().min(1).max(32).optional().describe('kept when given; a new rule gets one'),
  prefix: z
    .string()
    .regex(/^\+\d{0,15}$/, 'must be "+" and up to 15 digits, e.g. "+49" or "+4917" ("+" alone: every number)')
    .describe('the numbers it routes: those starting with this'),
  deviceIds: simTargetsSchema.min(1).describe('the modems, or SIM slots of modems, that may carry them'),
  fallbackDeviceIds: simTargetsSchema
    .default([])
    .describe("used while none of deviceIds' modems is online; empty: wait"),
});

export const routingRulesSchema = z.object({
  rules: z.array(routingRuleSchema).max(200).describe('in order: the first rule whose prefix matches wins'),
});

export const routingRuleViewSchema = routingRuleSchema.required({ id: true });

export const routeTryQuerySchema = z.object({
  phoneNumber: z.string().min(2).max(32).describe('E.164, e.g. +4915112345678'),
});

export const routeDecisionSchema = z.object({
  deviceIds: z
    .array(simTargetSchema)
    .optional()
    .describe('the modems or SIM slots it may go through now; absent: any'),
  ruleId: z.string().optional(),
  why: z.string(),
});
