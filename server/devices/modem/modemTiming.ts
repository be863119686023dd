import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/** Tunables of one driver. Every duration is in milliseconds. */
export interface ModemTimingOptions {
  /** Timeout of an ordinary command, and of the `> ` prompt that `AT+CMGS` awaits. Default 10 000. */
  commandTimeoutMs: number;
  /** How many `AT` tries to synchronise after opening (1..20). Default 5. */
  syncAttempts: number;
  /** Timeout of each synchronising `AT`. Default 2 000. */
  syncTimeoutMs: number;
  /** Quiet after the synchronising `AT`'s OK that proves it was ours. Default 200. */
  syncQuietMs: number;
  /** Wait for the network's `+CMGS` after the PDU was written. Default 60 000. */
  sendTimeoutMs: number;
  /** Interval of health rounds (`AT`, CSQ, CREG, COPS, CPIN). Default 30 000. */
  healthIntervalMs: number;
  /** Timeout of the health `AT` probe. Default 5 000. */
  probeTimeoutMs: number;
  /** Interval of listing every message memory, indications or not. Default 30 000. */
  pollIntervalMs: number;
  /** After a send, the storage is listed within this time (status reports). Default 5 000. */
  pollAfterSendMs: number;
  /** Wait for the network's `+CUSD:` answer after `AT+CUSD` answered OK. Default 30 000. */
  ussdTimeoutMs: number;
  /** First reconnect delay; doubles per failed attempt. Default 1 000. */
  backoffInitialMs: number;
  /** Longest reconnect delay. Default 60 000. */
  backoffMaxMs: number;
}

export const defaultModemTiming: ModemTimingOptions = {
  commandTimeoutMs: 10_000,
  syncAttempts: 5,
  syncTimeoutMs: 2_000,
  syncQuietMs: 200,
  sendTimeoutMs: 60_000,
  healthIntervalMs: 30_000,
  probeTimeoutMs: 5_000,
  pollIntervalMs: 30_000,
  pollAfterSendMs: 5_000,
  ussdTimeoutMs: 30_000,
  backoffInitialMs: 1_000,
  backoffMaxMs: 60_000,
};

/** Throws GatewayError(ConfigInvalid) naming the first timing that is out of range. */
export function checkModemTiming(timing: ModemTimingOptions): ModemTimingOptions {
  for (const [key, value] of Object.entries(timing)) {
    const valid =
      key === 'syncAttempts'
        ? Number.isInteger(value) && value >= 1 && value <= 20
        : Number.isFinite(value) && value > 0 && value <= 24 * 60 * 60 * 1000;
    if (!valid) {
      throw new GatewayError(ErrorCode.ConfigInvalid, `modem timing ${key}=${value} is out of range`, {
        field: key,
      });
    }
  }
  if (timing.backoffMaxMs < timing.backoffInitialMs) {
    throw new GatewayError(ErrorCode.ConfigInvalid, 'modem timing backoffMaxMs is below backoffInitialMs', {
      field: 'backoffMaxMs',
    });
  }
  return timing;
}
