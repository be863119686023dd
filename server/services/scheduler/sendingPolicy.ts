import type { ProcessingOrder } from '../../contract/domain/messageOrder.js';
import type { LimitPeriod } from './rateLimiter.js';
import type { SimSelectionMode } from './simSelection.js';
import type { WorkHours } from './workHours.js';

/** The settings the scheduler reads on every decision, so they apply live. */
export interface SendingPolicy {
  processingOrder: ProcessingOrder;
  sendIntervalMinSeconds: number | null;
  sendIntervalMaxSeconds: number | null;
  limitPeriod: LimitPeriod;
  limitValue: number | null;
  simSelectionMode: SimSelectionMode;
  /** Opt-in: re-queue a send a crash cut short instead of failing it (docs/decisions.md#no-silent-resend). */
  resendInterrupted: boolean;
  /** The user paused sending (tray, UI): nothing is handed to a modem; expiry still applies. */
  paused: boolean;
  /** Outside this daily window only expedited messages (priority ≥ 100) are sent; null: any time. */
  workHours: WorkHours | null;
}
