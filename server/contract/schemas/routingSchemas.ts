import { z } from 'zod';
import { isCountryCode } from '../domain/countryCode.js';
import { simTargetSchema, simTargetsSchema } from './simTargetSchema.js';

/** Routing rules (server/services/routing/, docs/accounts-plans-routing.md "Routing"). */
const country = z
  .string()
  .refine(isCountryCode, 'must be a country as ISO 3166 alpha-2 code, e.g. "DE"')
  .describe('ISO 3166 alpha-2, e.g. "DE"');

const routingRuleFields = z.object({
  id: z.string().min(1).max(32).optional().describe('kept when given; a new rule gets one'),
  prefix: z
    .string()
    .regex(/^\+\d{0,15}$/, 'must be "+" and up to 15 digits, e.g. "+49" or "+4917" ("+" alone: every number)')
    .optional()
    .describe('the numbers it routes: those starting with this (or give operator and country)'),
  operator: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe(
      'the numbers it routes: those in ranges allocated to this operator, as GET /gateway/v1/routing/operators names it',
    ),
  country: country
    .optional()
    .describe("the operator's country, ISO 3166 alpha-2 (names repeat across countries)"),
  deviceIds: simTargetsSchema.min(1).describe('the modems, or SIM slots of modems, that may carry them'),
  fallbackDeviceIds: simTargetsSchema
    .default([])
    .describe("used while none of deviceIds' modems is online; empty: wait"),
});

/** A rule matches a prefix, or an operator in a country: exactly one of the two. */
export const routingRuleSchema = routingRuleFields.superRefine((rule, context) => {
  const refuse = (field: 'prefix' | 'operator' | 'country', message: string) =>
    context.addIssue({ code: 'custom', path: [field], message });
  if (rule.operator === undefined) {
    if (rule.prefix === undefined) refuse('prefix', 'a rule needs a prefix, or an operator and its country');
    if (rule.country !== undefined) refuse('operator', 'a rule with a country needs an operator');
    return;
  }
  if (rule.prefix !== undefined) refuse('prefix', 'a rule matches a prefix or an operator, not both');
  if (rule.country === undefined)
    refuse('country', 'an operator rule needs the operator’s country, e.g. "DE"');
});

export const routingRulesSchema = z.object({
  rules: z.array(routingRuleSchema).max(200).describe('in order: the first rule that matches wins'),
});

export const routingRuleViewSchema = routingRuleFields.required({ id: true });

export const routeTryQuerySchema = z.object({
  phoneNumber: z.string().min(2).max(32).describe('E.164, e.g. +4915112345678'),
});

export const numberOperatorSchema = z
  .union([
    z.object({ name: z.string(), country: z.string() }),
    z.object({
      unknown: z.string().describe('why: "operator unknown for this number", or the data is missing'),
    }),
  ])
  .describe("the operator the number's range is allocated to (a ported number keeps it)");

export const routeDecisionSchema = z.object({
  deviceIds: z
    .array(simTargetSchema)
    .optional()
    .describe('the modems or SIM slots it may go through now; absent: any'),
  ruleId: z.string().optional(),
  operator: numberOperatorSchema,
  why: z.string(),
});

export const operatorListQuerySchema = z.object({ country });

export const operatorListSchema = z.object({
  country: z.string(),
  operators: z
    .array(z.string())
    .describe("the operators the data names for the country's calling code (+1, +7, +44: shared)"),
});
