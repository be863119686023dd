import type { LimitPeriods } from '../../../server/contract/schemas/settingsSchema.js';

/**
 * How long a bulk send takes at the modems' limits: pure, for the preview. Each ready modem
 * sends one part at a time; the settings' pause between messages and limit per period apply
 * to each modem (the scheduler's rules), so the slowest of those bounds the whole send.
 */

/** A part through a USB modem's AT+CMGS, prompt to answer: a typical figure, not a promise. */
export const typicalPartSeconds = 3;

const periodSeconds: Record<(typeof LimitPeriods)[number], number | undefined> = {
  Disabled: undefined,
  PerMinute: 60,
  Per30Minutes: 30 * 60,
  PerHour: 60 * 60,
  PerDay: 24 * 60 * 60,
};

export interface SendingLimits {
  /** Modems ready to send. */
  modems: number;
  sendIntervalMin: number | null;
  sendIntervalMax: number | null;
  limitPeriod: (typeof LimitPeriods)[number] | null;
  limitValue: number | null;
}

/** Seconds the send would take, or undefined with no modem ready. */
export function campaignSeconds(messages: number, parts: number, limits: SendingLimits): number | undefined {
  if (limits.modems <= 0 || messages <= 0) return messages <= 0 ? 0 : undefined;
  const perModemMessages = Math.ceil(messages / limits.modems);
  const perModemParts = Math.ceil(parts / limits.modems);
  const pause = ((limits.sendIntervalMin ?? 0) + (limits.sendIntervalMax ?? limits.sendIntervalMin ?? 0)) / 2;
  const sending = perModemParts * typicalPartSeconds + Math.max(0, perModemMessages - 1) * pause;
  const period = limits.limitPeriod ? periodSeconds[limits.limitPeriod] : undefined;
  const limited =
    period !== undefined && limits.limitValue && limits.limitValue > 0
      ? Math.floor((perModemMessages - 1) / limits.limitValue) * period
      : 0;
  return Math.max(sending, limited);
}

/** The settings document's values as `SendingLimits` (absent or unreadable values: no limit). */
export function limitsFrom(messages: Record<string, unknown> | undefined, modems: number): SendingLimits {
  const number = (value: unknown) => (typeof value === 'number' ? value : null);
  const period = messages?.limit_period;
  return {
    modems,
    sendIntervalMin: number(messages?.send_interval_min),
    sendIntervalMax: number(messages?.send_interval_max),
    limitPeriod:
      typeof period === 'string' && period in periodSeconds ? (period as SendingLimits['limitPeriod']) : null,
    limitValue: number(messages?.limit_value),
  };
}
