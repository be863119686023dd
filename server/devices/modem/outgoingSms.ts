import type { SubmitOptions } from '../../contract/pdu/index.js';
import { ErrorCode, GatewayError, isGatewayError } from '../../errors/gatewayError.js';
import type { SendRequest } from '../pool/outboundModem.js';

/**
 * What a modem is asked to send, and what its answer means: the pure half of a send, apart
 * from the driver that talks to the modem.
 */

/** The SMS-SUBMIT options for one request; `concatReference` ties the parts of a long text. */
export function submitOptionsFor(request: SendRequest, concatReference: number, now: number): SubmitOptions {
  const { content } = request;
  // The scheduler hands an MMS only to a member that `sendsMms`, which no modem is.
  if (content.kind === 'mms') {
    throw new GatewayError(ErrorCode.InvalidState, 'a modem sends SMS only, not an MMS', {
      field: 'mmsMessage',
    });
  }
  const options: SubmitOptions = {
    recipient: request.recipient,
    content:
      content.kind === 'text'
        ? { kind: 'text', text: content.text }
        : {
            kind: 'data',
            bytes: new Uint8Array(Buffer.from(content.data, 'base64')),
            destinationPort: content.port,
          },
    requestStatusReport: request.requestStatusReport,
    concatReference,
  };
  if (request.validUntil !== undefined) {
    // Relative TP-VP (TS 23.040 §9.2.3.12.1): every SMSC supports it; the codec rounds up.
    const seconds = Math.max(1, Math.ceil((request.validUntil - now) / 1000));
    options.validity = { kind: 'relative', seconds };
  }
  return options;
}

/**
 * The error of part `index` (of `count`) that failed. A refusal (+CMS ERROR, or a bare ERROR)
 * means nothing of that part went out: CmsError. Anything else after AT+CMGS (timeout, unplug)
 * leaves the outcome unknown: SendInterrupted.
 */
export function sendFailureError(error: unknown, index: number, count: number): GatewayError {
  const sentBefore = index > 0 ? ` after ${index} of ${count} parts were sent` : '';
  if (isGatewayError(error, ErrorCode.CmsError) || isGatewayError(error, ErrorCode.AtError)) {
    // A modem with numeric errors off, or odd firmware, answers a bare ERROR where TS 27.005
    // §3.2.5 would say +CMS ERROR: 500 (unknown error).
    const modemCode = error.modemCode ?? 500;
    return new GatewayError(
      ErrorCode.CmsError,
      `modem refused the message (+CMS ERROR ${modemCode})${sentBefore}`,
      {
        modemCode,
        cause: error,
      },
    );
  }
  if (isGatewayError(error, ErrorCode.CmeError)) return error;
  const partialResponse = isGatewayError(error) ? error.partialResponse : undefined;
  return new GatewayError(ErrorCode.SendInterrupted, `interrupted; may have been sent${sentBefore}`, {
    cause: error,
    ...(partialResponse ? { partialResponse } : {}),
  });
}
