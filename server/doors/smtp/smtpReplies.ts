import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/** An error smtp-server sends as the reply: `responseCode` and the message as its text. */
export interface SmtpReplyError extends Error {
  responseCode: number;
}

export function smtpReply(responseCode: number, message: string): SmtpReplyError {
  return Object.assign(new Error(message), { responseCode });
}

/**
 * The SMTP reply for a gateway error (RFC 5321 §4.2): 4xx where trying later can succeed (a full
 * queue, a locked-out client), 5xx where the same mail will never be taken. smtp-server adds the
 * RFC 3463 enhanced code for each reply code.
 */
export function smtpReplyOf(error: unknown): SmtpReplyError {
  if (!(error instanceof GatewayError)) return smtpReply(451, 'local error while queueing; try again later');
  switch (error.code) {
    case ErrorCode.QueueFull:
      return smtpReply(452, `the SMS queue is full: ${error.message}`);
    // The quota resets at a known time: a mail program that tries again later gets through.
    case ErrorCode.QuotaExceeded:
      return smtpReply(452, error.message);
    case ErrorCode.TooManyAttempts:
      return smtpReply(454, error.message);
    case ErrorCode.Unauthorized:
    case ErrorCode.Forbidden:
      return smtpReply(535, error.message);
    case ErrorCode.MessageTooLong:
      return smtpReply(552, error.message);
    case ErrorCode.ValidationFailed:
    case ErrorCode.NoDeviceAvailable:
      return smtpReply(550, error.message);
    default:
      return smtpReply(451, `${error.message}; try again later`);
  }
}
