import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

const HEX_DIGITS = '0123456789ABCDEF';

/** Parses hex as modems print it (either case, no separators). Pure: no Buffer, so the renderer can use it. */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0) {
    throw new GatewayError(ErrorCode.PduMalformed, `PDU hex has an odd length (${hex.length})`);
  }
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) {
    const high = hexDigitValue(hex.charCodeAt(index * 2));
    const low = hexDigitValue(hex.charCodeAt(index * 2 + 1));
    if (high < 0 || low < 0) {
      throw new GatewayError(
        ErrorCode.PduMalformed,
        `PDU hex has a non-hex character near offset ${index * 2}`,
      );
    }
    bytes[index] = (high << 4) | low;
  }
  return bytes;
}

/** Uppercase hex, the form AT+CMGS expects and modems list. */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) {
    hex += HEX_DIGITS.charAt(byte >> 4) + HEX_DIGITS.charAt(byte & 0x0f);
  }
  return hex;
}

function hexDigitValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}
