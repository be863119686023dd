/** Checks on caller-supplied numbers before they are written into octets. */
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/** Integers that must fit an octet (TP-MR, concatenation reference, TP-ST). */
export function requireOctetValue(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xff) {
    throw new GatewayError(ErrorCode.PduMalformed, `${field} must be an integer 0..255`, { field });
  }
  return value;
}

export function requirePort(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) {
    throw new GatewayError(ErrorCode.PduMalformed, `${field} must be an integer 0..65535`, { field });
  }
  return value;
}
