import { z } from 'zod';
import type { Clock } from '../../clock/clock.js';
import type { DeviceInfo } from '../../contract/domain/device.js';
import { describeNotReady } from '../../contract/domain/deviceTrouble.js';
import { describePortRefusal, type RefusedPort } from '../../contract/domain/portRefusal.js';
import type { DeviceDirectory } from '../../devices/pool/deviceDirectory.js';
import type { MessageRepository } from '../../store/repositories.js';

/**
 * Readiness as upstream reports it (docs/decisions.md#logs-and-health, after the IETF health-check draft):
 * `{status, version, releaseId, checks: {"<group>:<name>": {status, observedValue, observedUnit,
 * description}}}`. The overall status is the worst check; 503 only for `fail`.
 */
export const HealthStatuses = ['pass', 'warn', 'fail'] as const;
export type HealthStatus = (typeof HealthStatuses)[number];

export const healthCheckSchema = z.object({
  status: z.enum(HealthStatuses),
  observedValue: z.number(),
  observedUnit: z.string(),
  description: z.string(),
});

export const healthReportSchema = z.object({
  status: z.enum(HealthStatuses),
  version: z.string(),
  /** An increasing build number, an integer as upstream's `VERSION_CODE`. */
  releaseId: z.number().int(),
  checks: z.record(z.string(), healthCheckSchema),
});

export type HealthCheck = z.output<typeof healthCheckSchema>;
export type HealthReport = z.output<typeof healthReportSchema>;

export interface HealthThresholds {
  /** Weakest acceptable signal, in dBm; below it the check warns. Defaults: config/options.ts. */
  weakSignalDbm: number;
  /** Failed messages in the last hour from which the check warns, and from which it fails. */
  failedWarn: number;
  failedFail: number;
  /** Pending messages from which the queue check warns, and fails (the enqueue limit). */
  queueWarn: number;
  queueFail: number;
}

export interface HealthDependencies {
  devices: DeviceDirectory;
  messages: MessageRepository;
  clock: Clock;
  /** Whether the data directory accepts a write now (the store's own probe). */
  storageWritable(): Promise<boolean>;
  /** From package.json, read once by the composition root. */
  version: string;
  releaseId: number;
  thresholds: HealthThresholds;
  /** Ports discovery could not open (permission), each with its fix; they explain "0 ready". */
  refusedPorts?: () => readonly RefusedPort[];
}

const hourMs = 3_600_000;
const rank: Record<HealthStatus, number> = { pass: 0, warn: 1, fail: 2 };

export class HealthService {
  constructor(private readonly deps: HealthDependencies) {}

  /**
   * Liveness and startup (client-py `health/live`, `health/startup`): the API listens only once
   * the gateway has started, so any answer means both. No check applies; readiness has them.
   */
  running(): HealthReport {
    return { status: 'pass', version: this.deps.version, releaseId: this.deps.releaseId, checks: {} };
  }

  async report(): Promise<HealthReport> {
    const devices = this.deps.devices.list();
    const checks: Record<string, HealthCheck> = {
      'modems:connected': connectedCheck(devices, this.deps.refusedPorts?.() ?? []),
      'modems:real': realModemCheck(devices),
      'modems:signal': signalCheck(devices, this.deps.thresholds.weakSignalDbm),
      'sim:ready': simCheck(devices),
      'messages:failed': this.failedCheck(),
      'messages:queue': this.queueCheck(),
      'storage:writable': await this.storageCheck(),
    };
    const status = Object.values(checks).reduce<HealthStatus>(
      (worst, check) => (rank[check.status] > rank[worst] ? check.status : worst),
      'pass',
    );
    return { status, version: this.deps.version, releaseId: this.deps.releaseId, checks };
  }

  private failedCheck(): HealthCheck {
    const since = this.deps.clock.now() - hourMs;
    const failed = this.deps.messages.countFailedSince(since);
    const { failedWarn, failedFail } = this.deps.thresholds;
    return {
      status: failed >= failedFail ? 'fail' : failed >= failedWarn ? 'warn' : 'pass',
      observedValue: failed,
      observedUnit: 'messages',
      description: 'Messages that failed in the last hour',
    };
  }

  private queueCheck(): HealthCheck {
    const pending = this.deps.messages.countInState('Pending');
    const { queueWarn, queueFail } = this.deps.thresholds;
    return {
      status: pending >= queueFail ? 'fail' : pending >= queueWarn ? 'warn' : 'pass',
      observedValue: pending,
      observedUnit: 'messages',
      description: 'Messages waiting to be sent',
    };
  }

  private async storageCheck(): Promise<HealthCheck> {
    const writable = await this.deps.storageWritable().catch(() => false);
    return {
      status: writable ? 'pass' : 'fail',
      observedValue: writable ? 1 : 0,
      observedUnit: 'boolean',
      description: writable
        ? 'The data directory accepts writes'
        : 'The data directory does not accept writes',
    };
  }
}

/** Each modem that is not ready is named with what to do, as the desktop's notification says it. */
function connectedCheck(devices: readonly DeviceInfo[], refusedPorts: readonly RefusedPort[]): HealthCheck {
  const ready = devices.filter((device) => device.modem.status === 'ready').length;
  const counted = `${ready} of ${devices.length} modems ready to send`;
  const troubles = devices.filter((device) => device.modem.status !== 'ready').map(describeNotReady);
  return {
    status: ready === 0 ? 'fail' : ready < devices.length || refusedPorts.length > 0 ? 'warn' : 'pass',
    observedValue: ready,
    observedUnit: 'modems',
    description: [counted, ...troubles, ...refusedPorts.map(describePortRefusal)].join('. '),
  };
}

/**
 * The built-in simulated modem answers like a modem but reaches no phone: a gateway where only it
 * is ready passes every other check while no real SMS can leave. A warning, not a failure: the
 * simulator is also how the gateway is tried out and tested.
 */
function realModemCheck(devices: readonly DeviceInfo[]): HealthCheck {
  const ready = devices.filter((device) => device.modem.status === 'ready');
  const real = ready.filter((device) => !device.modem.simulated).length;
  return {
    status: real === 0 ? 'warn' : 'pass',
    observedValue: real,
    observedUnit: 'modems',
    description:
      real > 0
        ? `${real} real modems ready to send`
        : ready.length > 0
          ? 'Only the simulated modem is ready: no real SMS can leave'
          : 'No real modem is ready: no SMS can leave',
  };
}

/** The weakest signal among ready modems; unknown signal (+CSQ 99) counts as weak. */
function signalCheck(devices: readonly DeviceInfo[], weakSignalDbm: number): HealthCheck {
  const ready = devices.filter((device) => device.modem.status === 'ready');
  if (ready.length === 0) {
    return {
      status: 'warn',
      observedValue: 0,
      observedUnit: 'dBm',
      description: 'No ready modem to measure',
    };
  }
  const levels = ready.map((device) => device.modem.signal?.dbm);
  const known = levels.filter((level): level is number => level !== undefined);
  const weakest = known.length > 0 ? Math.min(...known) : 0;
  const weak = known.length < levels.length || weakest < weakSignalDbm;
  return {
    status: weak ? 'warn' : 'pass',
    observedValue: weakest,
    observedUnit: 'dBm',
    description: weak
      ? `A modem has weak or unknown signal (below ${weakSignalDbm} dBm)`
      : 'Every ready modem has usable signal',
  };
}

/** A SIM waiting for its PIN (or refusing it) cannot send: that modem is out of service. */
function simCheck(devices: readonly DeviceInfo[]): HealthCheck {
  const locked = devices.filter(
    (device) => device.modem.status === 'sim-pin-required' || device.modem.status === 'sim-pin-wrong',
  ).length;
  return {
    status: locked === 0 ? 'pass' : locked === devices.length ? 'fail' : 'warn',
    observedValue: locked,
    observedUnit: 'modems',
    description: locked === 0 ? 'Every SIM is unlocked' : `${locked} modems wait for a SIM PIN`,
  };
}
