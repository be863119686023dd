/**
 * Why Pending messages are not moving, for the UI and the health check (the scheduler's hold,
 * server/services/scheduler/holdReason.ts, puts it in words).
 */
export const HoldReasons = [
  'rate-limit',
  'send-interval',
  'no-modem',
  'scheduled',
  'paused',
  'work-hours',
  'plan-cap',
  'routing',
] as const;
export type HoldReason = (typeof HoldReasons)[number];
