import { z } from 'zod';
import type { Document } from '../store/documentStore.js';

/**
 * Per-modem settings of the modem operations (README "Modem operations"): the scheduled balance
 * check and what happens to incoming calls. Kept in the `modem-operations` document by device id,
 * with the last balance answer.
 */
export const ussdCodePattern = /^[0-9*#+]{1,32}$/;

export const modemOperationsSettingsSchema = z.object({
  /** USSD code that answers the balance, e.g. `*100#`; null: no scheduled check. */
  balanceCode: z
    .string()
    .regex(ussdCodePattern, 'must be a USSD code such as *100#')
    .nullable()
    .default(null),
  balanceIntervalMinutes: z.number().int().min(5).max(10_080).default(360),
  /**
   * A regular expression whose first group (or whole match) is the amount; default: the first
   * number in the answer. A comma decimal separator is read as a point.
   */
  balancePattern: z
    .string()
    .max(200)
    .refine(isValidPattern, 'must be a valid regular expression')
    .nullable()
    .default(null),
  /** Below this amount `modem:low-balance` is raised; null: never. */
  lowBalanceThreshold: z.number().nullable().default(null),
  /** Hang up on incoming calls (ATH or AT+CHUP, as the modem needs). */
  rejectCalls: z.boolean().default(true),
  /** Sent by SMS to each caller whose number is known; null: none. */
  callReplyText: z.string().min(1).max(480).nullable().default(null),
});

export type ModemOperationsSettings = z.output<typeof modemOperationsSettingsSchema>;

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

function isValidPattern(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
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
