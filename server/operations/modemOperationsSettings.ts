import type { Document } from '../store/documentStore.js';
import {
  type ModemOperationsSettings,
  modemOperationsSettingsSchema,
} from '../validation/modemOperationsSchemas.js';

/**
 * Per-modem settings of the modem operations (README "Modem operations"): the scheduled balance
 * check and what happens to incoming calls. Kept in the `modem-operations` document by device id,
 * with the last balance answer. The settings' schema is in `validation/modemOperationsSchemas.ts`.
 */
export const defaultOperationsSettings: ModemOperationsSettings = modemOperationsSettingsSchema.parse({});

export interface BalanceReading {
  answer: string;
  /** The amount the pattern found; absent when it found none. */
  amount?: number;
  at: number;
  /** Below the threshold at that time. */
  low: boolean;
}

export interface ModemOperationsDocument {
  devices: Record<string, { settings: ModemOperationsSettings; lastBalance?: BalanceReading }>;
}

export class ModemOperationsSettingsStore {
  constructor(private readonly document: Document<ModemOperationsDocument>) {}

  settings(deviceId: string): ModemOperationsSettings {
    return this.document.data.devices[deviceId]?.settings ?? defaultOperationsSettings;
  }

  lastBalance(deviceId: string): BalanceReading | undefined {
    return this.document.data.devices[deviceId]?.lastBalance;
  }

  /** Device ids with a balance code. */
  withBalanceCheck(): string[] {
    return Object.entries(this.document.data.devices)
      .filter(([, entry]) => entry.settings.balanceCode !== null)
      .map(([deviceId]) => deviceId);
  }

  async save(deviceId: string, settings: ModemOperationsSettings): Promise<void> {
    await this.document.update((data) => {
      const entry = data.devices[deviceId];
      data.devices[deviceId] = entry ? { ...entry, settings } : { settings };
    });
  }

  async saveBalance(deviceId: string, reading: BalanceReading): Promise<void> {
    await this.document.update((data) => {
      data.devices[deviceId] = { settings: this.settings(deviceId), lastBalance: reading };
    });
  }
}

/** The amount in a balance answer: the pattern's first group, or its whole match. */
export function extractAmount(answer: string, pattern: string | null): number | undefined {
  const match = new RegExp(pattern ?? '-?\\d+(?:[.,]\\d+)?').exec(answer);
  const text = match?.[1] ?? match?.[0];
  if (text === undefined) return undefined;
  const amount = Number(text.replace(',', '.'));
  return Number.isFinite(amount) ? amount : undefined;
}
