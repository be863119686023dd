import type { MessageState } from './message.js';

/** One line of a campaign's report: a recipient, its state, error and times (ISO 8601). */
export interface CampaignRecipientReport {
  messageId: string;
  phoneNumber: string;
  state: MessageState;
  error?: string;
  queuedAt?: string;
  sentAt?: string;
  deliveredAt?: string;
  failedAt?: string;
  cancelledAt?: string;
}
