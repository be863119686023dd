/**
 * Checks the PDU a host typed after `AT+CMGS=<length>` the way a modem does before handing it
 * to the network: hex, a <length> equal to the TPDU octets (TS 27.005 §3.5.1: the length
 * excludes the SMSC address field), and an SMS-SUBMIT that decodes.
 */

import type { DecodedSubmit } from '../../contract/pdu/index.js';
import { decodePdu } from '../../contract/pdu/index.js';
import { describeError } from '../../errors/gatewayError.js';

export type SubmitCheck = { ok: true; decoded: DecodedSubmit } | { ok: false; reason: string };

export function checkSubmittedPdu(hex: string, declaredLength: number): SubmitCheck {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9A-Fa-f]+$/.test(hex)) {
    return { ok: false, reason: 'the PDU is not an even number of hex digits' };
  }
  const smscFieldOctets = 1 + Number.parseInt(hex.slice(0, 2), 16);
  const tpduOctets = hex.length / 2 - smscFieldOctets;
  if (tpduOctets !== declaredLength) {
    return { ok: false, reason: `AT+CMGS declared ${declaredLength} octets but the TPDU has ${tpduOctets}` };
  }
  try {
    const decoded = decodePdu(hex, { hasSmsc: true });
    if (decoded.type !== 'submit') return { ok: false, reason: `the PDU is an SMS-${decoded.type}` };
    return { ok: true, decoded };
  } catch (error) {
    return { ok: false, reason: `the PDU does not decode: ${describeError(error)}` };
  }
}
