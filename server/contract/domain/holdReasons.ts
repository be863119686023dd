/**
 * Why Pending messages are not moving, for the UI and the health check (the scheduler's hold,
 * server/services/scheduler/holdReason.ts, puts it in words).
 */
export const HoldReasons = [
  'rate-limit',
  'send-interval',
  'no-modem',
  /** An MMS, and no member that sends MMS is online (docs/phones.md "MMS"). */
  'no-mms-device',
  'scheduled',
  'paused',
  'work-hours',
  'plan-cap',
  'routing',
] as const;
export type HoldReason = (typeof HoldReasons)[number];

/** Why one queued message waits: a hold, or its turn behind sends in progress (`queued`). */
export const WaitReasons = [...HoldReasons, 'queued'] as const;
export type WaitReason = (typeof WaitReasons)[number];

export interface MessageWait {
  reason: WaitReason;
  /** In words, e.g. "outside working hours: next send in 42 min". */
  detail: string;
  /** When the scheduler will look again on its own (ms since epoch); absent: on an event. */
  nextAttemptAt?: number;
}
