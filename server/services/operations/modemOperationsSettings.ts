import type { PatternDisabled } from '../../contract/domain/userPatterns.js';
import {
  type ModemOperationsSettings,
  modemOperationsSettingsSchema,
} from '../../contract/schemas/modemOperationsSchemas.js';
import type { Document } from '../../store/documentStore.js';

/**
 * Per-modem settings of the modem operations (docs/modems.md "Modem operations"): the scheduled balance
 * check and what happens to incoming calls. Kept in the `modem-operations` document by device id,
 * with the last balance answer. The settings' schema is in `schemas/modemOperationsSchemas.ts`.
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
  devices: Record<
    string,
    {
      settings: ModemOperationsSettings;
      lastBalance?: BalanceReading;
      /** The balance pattern is not run (kept until the pattern is changed). */
      patternDisabled?: PatternDisabled;
    }
  >;
}

export class ModemOperationsSettingsStore {
  constructor(private readonly document: Document<ModemOperationsDocument>) {}

  settings(deviceId: string): ModemOperationsSettings {
    return this.document.data.devices[deviceId]?.settings ?? defaultOperationsSettings;
  }

  lastBalance(deviceId: string): BalanceReading | undefined {
    return this.document.data.devices[deviceId]?.lastBalance;
  }

  balancePatternDisabled(deviceId: string): PatternDisabled | undefined {
    return this.document.data.devices[deviceId]?.patternDisabled;
  }

  /** Device ids with a balance code. */
  withBalanceCheck(): string[] {
    return Object.entries(this.document.data.devices)
      .filter(([, entry]) => entry.settings.balanceCode !== null)
      .map(([deviceId]) => deviceId);
  }

  /** A disabled pattern stays so while the settings keep it (the form saves them all at once). */
  async save(deviceId: string, settings: ModemOperationsSettings): Promise<void> {
    await this.document.update((data) => {
      const entry = data.devices[deviceId];
      const next = { ...entry, settings };
      if (entry?.settings.balancePattern !== settings.balancePattern) delete next.patternDisabled;
      data.devices[deviceId] = next;
    });
  }

  async saveBalance(deviceId: string, reading: BalanceReading): Promise<void> {
    await this.document.update((data) => {
      data.devices[deviceId] = {
        ...data.devices[deviceId],
        settings: this.settings(deviceId),
        lastBalance: reading,
      };
    });
  }

  /** Only while the settings still hold `pattern`: a pattern changed meanwhile is not the one to blame. */
  async disableBalancePattern(deviceId: string, pattern: string, disabled: PatternDisabled): Promise<void> {
    await this.document.update((data) => {
      const entry = data.devices[deviceId];
      if (entry?.settings.balancePattern === pattern) entry.patternDisabled = disabled;
    });
  }
}

/**
 * The first number in the answer, when the user gave no pattern. Linear in the answer's length,
 * so it runs here and not on the thread users' patterns need.
 */
export const defaultAmountPattern = /-?\d+(?:[.,]\d+)?/;

/** The amount in a match of a balance pattern: its first group, or its whole match. */
export function amountOf(match: readonly (string | undefined)[] | null): number | undefined {
  const text = match?.[1] ?? match?.[0];
  if (text === undefined) return undefined;
  const amount = Number(text.replace(',', '.'));
  return Number.isFinite(amount) ? amount : undefined;
}
