import type { Clock } from '../../clock/clock.js';
import type { DeviceDirectory } from '../../devices/pool/deviceDirectory.js';
import type { SignalSample } from '../../store/modemRecords.js';

/** One sample per modem at most this often: 288 a day, plenty for a 24 h line. */
const sampleEveryMs = 5 * 60_000;
const historyMs = 24 * 60 * 60_000;

export interface SignalRecorderOptions {
  devices: DeviceDirectory;
  clock: Clock;
  addSample(deviceId: string, sample: SignalSample, keepFrom: number): void;
}

/**
 * Keeps each modem's signal history from the health rounds' +CSQ (device changes), at most one
 * sample per modem every five minutes, the last 24 h. Returns the unsubscribe function.
 */
export function recordSignalHistory(options: SignalRecorderOptions): () => void {
  const lastSampleAt = new Map<string, number>();
  return options.devices.onChange((deviceId) => {
    const signal = options.devices.get(deviceId)?.modem.signal;
    const now = options.clock.now();
    // rssi 99 is "not known" (TS 27.007 §8.5): no point on the line.
    if (!signal || signal.rssi === 99 || now - (lastSampleAt.get(deviceId) ?? 0) < sampleEveryMs) return;
    lastSampleAt.set(deviceId, now);
    const sample: SignalSample = { at: now, rssi: signal.rssi };
    if (signal.dbm !== undefined) sample.dbm = signal.dbm;
    options.addSample(deviceId, sample, now - historyMs);
  });
}
