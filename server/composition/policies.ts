import { minutesOfClockTime } from '../clock/zonedTime.js';
import type { Settings } from '../contract/schemas/settingsSchema.js';
import type { SendingPolicy } from '../services/scheduler/scheduler.js';
import type { WorkHours } from '../services/scheduler/workHours.js';
import type { WebhookPolicy } from '../services/webhooks/webhookDispatcher.js';

/** The scheduler's view of the settings (read on every decision, so changes apply live). */
export function sendingPolicyFrom(
  settings: Settings,
  runtime: { resendInterrupted: boolean; paused: boolean; timeZone: string },
): SendingPolicy {
  const { messages } = settings;
  return {
    processingOrder: messages.processing_order ?? 'LIFO',
    sendIntervalMinSeconds: messages.send_interval_min,
    sendIntervalMaxSeconds: messages.send_interval_max,
    limitPeriod: messages.limit_period ?? 'Disabled',
    limitValue: messages.limit_value,
    simSelectionMode: messages.sim_selection_mode ?? 'OSDefault',
    resendInterrupted: runtime.resendInterrupted,
    paused: runtime.paused,
    workHours: workHoursFrom(settings, runtime.timeZone),
  };
}

/** The window in force, or null while off (the settings service ensures both ends when on). */
function workHoursFrom(settings: Settings, timeZone: string): WorkHours | null {
  const { work_hours_enabled: enabled, work_hours_start: start, work_hours_end: end } = settings.messages;
  if (!enabled || start === null || end === null) return null;
  return { startMinute: minutesOfClockTime(start), endMinute: minutesOfClockTime(end), timeZone };
}

/** The webhook dispatcher's view of the settings. */
export function webhookPolicyFrom(settings: Settings): WebhookPolicy {
  const { webhooks, ping } = settings;
  const policy: WebhookPolicy = {
    retryCount: webhooks.retry_count ?? 1,
    internetRequired: webhooks.internet_required ?? true,
    pingIntervalSeconds: ping.interval_seconds,
  };
  if (webhooks.signing_key) policy.signingKey = webhooks.signing_key;
  return policy;
}
