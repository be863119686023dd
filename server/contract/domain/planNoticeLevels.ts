/**
 * The share of a SIM plan's cap (in percent) at which a notice goes out: near it, then at it.
 * The `plan:cap-*` webhooks, the desktop notification and the window's plan bars all use them.
 */
export const PlanNoticeLevels = [80, 100] as const;
export type PlanNoticeLevel = (typeof PlanNoticeLevels)[number];
