/**
 * Unsolicited result codes (URCs). Every incoming line is offered here FIRST: a URC never
 * completes or pollutes the response of the command in flight (python-gsmmodem's bug was to
 * swallow a +CMTI that arrived mid-command). Pure.
 */
import { isCallControlCommand } from './finalResults.js';

export interface UrcMatch {
  /** '+CMTI', 'RING', '^RSSI', 'SMS DONE' … */
  name: string;
  /** Everything after "<name>:" with the leading space removed; '' for bare codes. */
  args: string;
  /** The next line belongs to this code (the PDU of +CMT / +CDS / +CBM). */
  takesNextLine: boolean;
}

/**
 * Prefixed codes that are always unsolicited, unless the command in flight is the one that
 * queries the same prefix (AT+CREG? answers "+CREG: 2,1", AT+CPIN? answers "+CPIN: READY").
 */
/** "+NAME: args", or a bare "+NAME" (ZTE sends "+ZEND" alone). */
const prefixedCodes: ReadonlySet<string> = new Set([
  // TS 27.005 §3.4.1 new-message indications and §3.4.2 cell broadcast
  '+CMTI',
  '+CMT',
  '+CDS',
  '+CDSI',
  '+CBM',
  // TS 27.007 §7.2 / §10.1.19 / §10.1.22 registration changes (AT+CREG=1 or 2)
  '+CREG',
  '+CGREG',
  '+CEREG',
  // TS 27.007 §7.6 calling line identity, §6.11 extended ring, §8.9 indicator events
  '+CLIP',
  '+CRING',
  '+CIEV',
  // TS 27.007 §7.15 the network's answer to a USSD request (AT+CUSD=1 answers OK first)
  '+CUSD',
  // TS 27.007 §8.3: +CPIN after a SIM state change (SIMCom/Quectel on boot)
  '+CPIN',
  // Huawei (E1752, E3372): signal, boot, mode, service and SIM state reports
  '^RSSI',
  '^BOOT',
  '^MODE',
  '^SRVST',
  '^SIMST',
  // ZTE (K3565-Z, MF series): operator, access technology, USIM and call end reports
  '+ZDONR',
  '+ZPASR',
  '+ZUSIMR',
  '+ZEND',
  // Quectel and SIMCom boot/status indications, SIM toolkit
  '+QIND',
  '+PACSP',
  '+STIN',
]);

/** Bare-word codes (no colon) that are always unsolicited. */
const bareCodes: ReadonlySet<string> = new Set(['RING', 'SMS DONE', 'PB DONE', 'RDY', 'Call Ready']);

/** "+NAME: args", or a bare "+NAME" (ZTE sends "+ZEND" alone). */
const prefixed = /^([+^][A-Za-z0-9]+)(?::\s?(.*))?$/;

/**
 * Classifies a line given the command in flight (without its trailing CR), or undefined when
 * the session is idle. Returns undefined for anything that is not a URC.
 */
export function classifyUnsolicited(line: string, commandInFlight: string | undefined): UrcMatch | undefined {
  const text = line.trim();
  if (bareCodes.has(text)) return { name: text, args: '', takesNextLine: false };
  // V.250 §6.3: NO CARRIER ends a dial/answer command; otherwise it reports a call that ended.
  if (text === 'NO CARRIER' && (commandInFlight === undefined || !isCallControlCommand(commandInFlight))) {
    return { name: text, args: '', takesNextLine: false };
  }
  const match = prefixed.exec(text);
  if (!match) return undefined;
  const name = (match[1] ?? '').toUpperCase();
  const args = match[2] ?? '';
  if (!prefixedCodes.has(name)) return undefined;
  if (commandInFlight !== undefined && queriedPrefix(commandInFlight) === name) return undefined;
  return { name, args, takesNextLine: takesNextLine(name, args) };
}

/**
 * TS 27.005 §3.4.1: +CMT and +CBM are always followed by their PDU (or text) line. +CDS is
 * followed by a PDU only in PDU mode, where its header is just "<length>"; in text mode the
 * whole report is on the one line.
 */
function takesNextLine(name: string, args: string): boolean {
  if (name === '+CMT' || name === '+CBM') return true;
  // TS 27.007 §7.15: the network's USSD text may hold line breaks, which modems pass on inside
  // the quotes: the code goes on until its closing quote (see `AtSession`).
  if (name === '+CUSD') return hasOpenQuote(args);
  if (name === '+CDS') return /^\d+$/.test(args.trim());
  return false;
}

/** "AT+CREG?" → "+CREG"; "AT^SYSINFO" → "^SYSINFO"; "ATI" → undefined. */
function queriedPrefix(command: string): string | undefined {
  const match = /^AT([+^][A-Za-z0-9]+)/i.exec(command.trim());
  return match?.[1]?.toUpperCase();
}

/** An odd number of double quotes: a quoted string is still open at the end of `text`. */
export function hasOpenQuote(text: string): boolean {
  return (text.match(/"/g)?.length ?? 0) % 2 === 1;
}
