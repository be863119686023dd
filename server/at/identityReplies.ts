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
 * `+ICCID: …` (u-blox) or a bare number. ITU-T E.118: up to 20 digits; SIMs pad an odd length
 * with a trailing F, which is removed.
 */
export function parseIccid(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const rest = line
      .replace(/^\s*[+^][A-Z]*CCID:\s*/i, '')
      .replaceAll('"', '')
      .trim();
    const match = /^(\d{18,20})F?$/i.exec(rest);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/**
 * AT+CLAC (TS 27.007 §8.37): one command per line. Huawei E1752 sends them without the
 * `+CLAC:` prefix (and with `\r\r\n`, which the framer already absorbed).
 */
export function parseClac(lines: readonly string[]): string[] {
  const commands: string[] = [];
  for (const line of lines) {
    const command = (afterPrefix(line, '+CLAC') ?? line).trim();
    if (command.length > 0) commands.push(command);
  }
  return commands;
}
