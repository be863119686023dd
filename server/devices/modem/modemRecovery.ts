import { type Clock, sleep } from '../../clock/clock.js';
import type { DeviceStatusReason, ModemStatus } from '../../contract/domain/device.js';
import { describeError, ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { backoffDelay } from './backoff.js';

/** probe: `AT` on the open session; reinit: the whole bring-up again; reopen: a fresh transport. */
export type RecoveryStep = 'probe' | 'reinit' | 'reopen';

/** The step to try after `step` failed: each one asks more of the modem than the one before. */
function escalate(step: RecoveryStep): RecoveryStep {
  return step === 'probe' ? 'reinit' : 'reopen';
}

export interface ModemRecoveryOptions {
  clock: Clock;
  logger: Logger;
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** The driver was stopped: recovery ends. */
  stopped(): boolean;
  /** Called once as a recovery begins (the driver stops its rounds and says it is recovering). */
  begin(): void;
  /** Runs one step; resolves once the modem is back. */
  run(step: RecoveryStep): Promise<void>;
  /** A failure that needs a person (a wrong PIN): nothing automatic may retry it. */
  isTerminal(error: unknown): boolean;
  /** A reopen failed: the driver says why the modem is unreachable. */
  reopenFailed(error: unknown): void;
}

/**
 * Escalates until the modem answers again: probe → re-init → reopen, reopening with capped
 * exponential back-off. Only one recovery runs at a time.
 */
export class ModemRecovery {
  private running = false;

  constructor(private readonly options: ModemRecoveryOptions) {}

  async recover(firstStep: RecoveryStep, alreadyFailedOnce = false): Promise<void> {
    const { options } = this;
    if (this.running || options.stopped()) return;
    this.running = true;
    options.begin();
    let step = firstStep;
    let failures = alreadyFailedOnce ? 1 : 0;
    try {
      while (!options.stopped()) {
        if (step === 'reopen' && failures > 0) {
          await sleep(
            options.clock,
            backoffDelay(failures - 1, options.backoffInitialMs, options.backoffMaxMs),
          );
          if (options.stopped()) return;
        }
        try {
          await options.run(step);
          return;
        } catch (error) {
          if (options.isTerminal(error)) return;
          options.logger.warn(`recovery step ${step} failed`, { error: describeError(error) });
          if (step === 'reopen') {
            failures++;
            options.reopenFailed(error);
          }
          step = escalate(step);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

/**
 * The status a failed attempt to reach the modem leaves: 'offline' when its port is gone (or
 * no session ever opened), else 'recovering', with the reason in words and as a code.
 */
export function unreachableStatus(
  error: unknown,
  hasSession: boolean,
): { status: Extract<ModemStatus, 'offline' | 'recovering'>; detail: string; reason: DeviceStatusReason } {
  if (isGatewayError(error, ErrorCode.ModemNotReady)) {
    return {
      status: 'recovering',
      detail: `The modem answers but is not usable: ${describeError(error)}; retrying.`,
      reason: 'not-usable',
    };
  }
  if (isGatewayError(error, ErrorCode.TransportAccessDenied)) {
    return {
      status: 'offline',
      detail: `Modem not reachable: ${describeError(error)}`,
      reason: 'port-access-denied',
    };
  }
  const portMissing =
    isGatewayError(error, ErrorCode.TransportOpenFailed) || isGatewayError(error, ErrorCode.TransportClosed);
  if (portMissing || !hasSession) {
    return {
      status: 'offline',
      detail: `Modem not reachable: ${describeError(error)}`,
      reason: 'port-missing',
    };
  }
  return {
    status: 'recovering',
    detail: `Modem not answering: ${describeError(error)}`,
    reason: 'not-answering',
  };
}
