import { z } from 'zod';
import { patternDisabledViewSchema } from './patternSchemas.js';
import { e164Pattern } from './primitives.js';

/**
 * The modem operations' shapes (docs/modems.md "Modem operations"): the per-modem balance check and call
 * settings, and the records the routes answer with (USSD exchanges, balance readings, missed
 * calls, per-modem figures). Pure, so the UI takes its types and the form its bounds from here.
 */
export const ussdCodePattern = /^[0-9*#+]{1,32}$/;

/** How often a scheduled balance check may run: not more than every 5 minutes, at least weekly. */
export const BalanceIntervalMinutes = { min: 5, max: 10_080 } as const;

export const modemOperationsSettingsSchema = z.object({
  /** USSD code that answers the balance, e.g. `*100#`; null: no scheduled check. */
  balanceCode: z
    .string()
    .regex(ussdCodePattern, 'must be a USSD code such as *100#')
    .nullable()
    .default(null),
  balanceIntervalMinutes: z
    .number()
    .int()
    .min(BalanceIntervalMinutes.min)
    .max(BalanceIntervalMinutes.max)
    .default(360),
  /**
   * A regular expression whose first group (or whole match) is the amount; default: the first
   * number in the answer. A comma decimal separator is read as a point.
   */
  balancePattern: z
    .string()
    .max(200)
    .refine(isValidPattern, 'must be a valid regular expression')
    .nullable()
    .default(null),
  /** Below this amount `modem:low-balance` is raised; null: never. */
  lowBalanceThreshold: z.number().nullable().default(null),
  /** Hang up on incoming calls (ATH or AT+CHUP, as the modem needs). */
  rejectCalls: z.boolean().default(true),
  /** Sent by SMS to each caller whose number is known; null: none. */
  callReplyText: z.string().min(1).max(480).nullable().default(null),
  /**
   * This modem's number, for a SIM that does not report its own (`AT+CNUM`): what an incoming
   * SMS was sent to, which SMPP clients require of a deliver_sm (Kannel refuses an empty one).
   */
  ownNumber: z
    .string()
    .regex(e164Pattern, 'must be an E.164 number such as +4915112345678')
    .nullable()
    .default(null),
});

export type ModemOperationsSettings = z.output<typeof modemOperationsSettingsSchema>;

function isValidPattern(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** 'waiting': the network waits for a reply (continue with `sessionId`); else the session ended. */
export const UssdExchangeStates = ['waiting', 'done', 'ended-by-network'] as const;
export type UssdExchangeState = (typeof UssdExchangeStates)[number];

export const ussdExchangeViewSchema = z.object({
  id: z.string(),
  deviceId: z.string(),
  request: z.string(),
  answer: z.string(),
  state: z.enum(UssdExchangeStates),
  sessionId: z.string().optional(),
  at: z.string(),
});

export const balanceViewSchema = z.object({
  answer: z.string(),
  amount: z.number().optional(),
  at: z.string(),
  low: z.boolean(),
});

/** GET/PUT /gateway/v1/devices/{id}/operations: the settings with the last balance answer. */
export const modemOperationsViewSchema = modemOperationsSettingsSchema.extend({
  lastBalance: balanceViewSchema.optional(),
  /** Present while `balancePattern` is not run: the checks keep the answer, without an amount. */
  balancePatternDisabled: patternDisabledViewSchema.optional(),
});

export const missedCallViewSchema = z.object({
  id: z.string(),
  deviceId: z.string(),
  phoneNumber: z.string().optional(),
  calledAt: z.string(),
  rejected: z.boolean(),
});

/** One day's counts (GET /gateway/v1/stats/daily, and per modem in GET /gateway/v1/stats). */
export const dailyCountViewSchema = z.object({
  date: z.string(),
  sent: z.number(),
  delivered: z.number(),
  failed: z.number(),
  received: z.number(),
});

export const modemFiguresViewSchema = z.object({
  deviceId: z.string(),
  days: z.array(dailyCountViewSchema),
  signal: z.array(z.object({ at: z.string(), rssi: z.number(), dbm: z.number().optional() })),
});
