import type { LowBalanceEvent, MissedCallEvent } from '../../contract/domain/device.js';
import type { WebhookEvent } from '../../contract/domain/webhookEvents.js';

/** `call:missed`: who called which modem when, and whether the gateway hung up. */
export function payloadForMissedCall(call: MissedCallEvent): WebhookEvent {
  const payload: Record<string, unknown> = {
    callId: call.id,
    calledAt: new Date(call.at).toISOString(),
    rejected: call.rejected,
  };
  if (call.number !== undefined) payload.phoneNumber = call.number;
  return { event: 'call:missed', deviceId: call.deviceId, payload };
}

/** `modem:low-balance`: the amount found, the threshold, and the network's answer. */
export function payloadForLowBalance(low: LowBalanceEvent): WebhookEvent {
  return {
    event: 'modem:low-balance',
    deviceId: low.deviceId,
    payload: {
      balance: low.balance,
      threshold: low.threshold,
      answer: low.answer,
      checkedAt: new Date(low.at).toISOString(),
    },
  };
}
