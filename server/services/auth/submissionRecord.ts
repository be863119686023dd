import type { Principal } from './accessControl.js';

/**
 * A message a person or app queued through a way in beside HTTP (SMTP, SMPP), told to the audit
 * trail as a change made through the API is (`action` from contract/domain/submissionWays.ts),
 * so that the window names who sent it and how.
 */
export interface Submission {
  principal: Principal;
  action: string;
  summary: string;
  /** The message's id. */
  subject: string;
  fields: string[];
}

export type RecordSubmission = (submission: Submission) => void;
