import type { SendingPolicy } from '../scheduler/scheduler.js';
import type { Settings } from '../settings/settingsSchema.js';
import type { WebhookPolicy } from '../webhooks/webhookDispatcher.js';

/** The scheduler's view of the settings (read on every decision, so changes apply live). */
export function sendingPolicyFrom(
  settings: Settings,
  runtime: { resendInterrupted: boolean; paused: boolean },
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
  };
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
