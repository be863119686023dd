/**
 * Parsers for identity replies: manufacturer, model, revision, IMEI (TS 27.007 §5), the SIM's
 * ICCID (vendor commands) and the command list of AT+CLAC. Pure.
 */
import { afterPrefix } from './replyFields.js';

/**
 * AT+CGMI / +CGMM / +CGMR / +CGSN (and ATI-style GMx): the first information line, with or
 * without a `+CGMx:` prefix (Quectel and SIMCom omit it, Sierra and u-blox include it) and
 * with quotes removed. Undefined for an empty reply.
 */
export function parseIdentity(lines: readonly string[], prefix: string): string | undefined {
  for (const line of lines) {
    const rest = afterPrefix(line, prefix) ?? line.trim();
    const value = rest.replaceAll('"', '').trim();
    if (value.length > 0) return value;
  }
  return undefined;
}

/**
 * ICCID from `+CCID: …` (SIMCom, Telit), `^ICCID: …` (Huawei), `+QCCID: …` (Quectel),
 * `+ICCID: …` (u-blox) or a bare number; undefined when none is a valid ICCID.
 */
export function parseIccid(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const rest = line
      .replace(/^\s*[+^][A-Z]*CCID:\s*/i, '')
      .replaceAll('"', '')
      .trim()
      .toUpperCase();
    // SIMs pad an odd number of digits with a trailing F (the unused nibble of the last byte).
    const iccid = rest.endsWith('F') ? rest.slice(0, -1) : rest;
    if (iccidPattern.test(iccid)) return iccid;
  }
  return undefined;
}

/**
 * ITU-T E.118: the industry identifier 89 (telecom, ISO/IEC 7812), then country code and issuer
 * in decimal, then the account number and check digit, up to 20 in all. Some operators (China
 * Mobile) use the spare BCD values A–F in the account part, so hex is allowed after the first six,
 * as ModemManager's mm_3gpp_parse_iccid does.
 */
const iccidPattern = /^89\d{4}[0-9A-F]{12,14}$/;
