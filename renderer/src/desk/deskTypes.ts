/** The desk's records as `/gateway/v1/contacts`, `groups`, `templates` and `campaigns` answer them. */
// The address book's records are the server's own type-only module.
export type { Contact, ContactInput, Group } from '../../../server/contract/domain/contacts.js';

export interface Template {
  id: string;
  name: string;
  text: string;
  placeholders: string[];
  updatedAt: number;
}

export interface ImportMapping {
  phoneNumber: string;
  name?: string;
  notes?: string;
  groups?: string;
}

export interface ImportReport {
  columns: string[];
  rows: number;
  contacts: {
    line: number;
    phoneNumber: string;
    name: string;
    notes: string;
    groups: string[];
    existing: boolean;
  }[];
  duplicates: number;
  /** The first 100 row errors. */
  errors: { line: number; field: string; message: string }[];
  errorCount: number;
  imported?: { created: number; updated: number };
}

export interface CampaignRequest {
  /** The window's id for the campaign: a retry under it finds the campaign instead of a second. */
  id?: string;
  name?: string;
  text: string;
  recipients: {
    phoneNumbers?: string[];
    contactIds?: string[];
    groupIds?: string[];
    rows?: { phoneNumber: string; fields?: Record<string, string> }[];
  };
  /** ISO 8601: not sent before then. */
  scheduleAt?: string;
  /** Send to the rest when some recipients have a problem. */
  skipProblems?: boolean;
}

export interface CampaignPreview {
  recipients: number;
  duplicates: number;
  removed: Record<string, number>;
  partsPerMessage: { min: number; max: number };
  totalParts: number;
  samples: { phoneNumber: string; name?: string; text: string; parts: number }[];
  /** The first 100. */
  problems: { field: string; message: string }[];
  problemCount: number;
}

export interface Campaign {
  id: string;
  name: string;
  text: string;
  createdAt: number;
  recipients: number;
  totalParts: number;
  cancelledAt?: number;
  /** Not sent before this instant (ms since epoch). */
  scheduleAt?: number;
  state: 'Queueing' | 'Running' | 'Completed' | 'Cancelled' | 'Interrupted';
  progress: {
    queued: number;
    sent: number;
    delivered: number;
    failed: number;
    cancelled: number;
    percent: number;
  };
}

/** One line of a campaign's report (GET /gateway/v1/campaigns/{id}/recipients). */
export type { CampaignRecipientReport } from '../../../server/contract/domain/campaignReport.js';
