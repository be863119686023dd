/**
 * Parsers for the SMS replies of TS 27.005 §3: storages, indications, listings, reads, sends,
 * the service centre and own numbers. Tolerant of the variants recorded in
 * test/fixtures/transcripts (gammu dumps, python-gsmmodem fakes, smstools3 notes). Pure.
 */
import {
  afterPrefix,
  expandRanges,
  findPrefixed,
  type ListItem,
  parseLists,
  splitLoose,
  splitQuoted,
  toInt,
  tokensOf,
} from './replyFields.js';

export interface StorageUsage {
  /** Storage name when the reply carries it (AT+CPMS? does, the answer to AT+CPMS= does not). */
  storage?: string;
  used: number;
  total: number;
}

/**
 * `+CPMS: "SM",14,50,"SM",14,50,"SM",14,50` (query) or `+CPMS: 14,50,14,50` (set): one entry
 * per memory, in <mem1>, <mem2>, <mem3> order.
 */
export function parseCpmsUsage(lines: readonly string[]): StorageUsage[] | undefined {
  const rest = findPrefixed(lines, '+CPMS');
  if (rest === undefined) return undefined;
  const usage: StorageUsage[] = [];
  let storage: string | undefined;
  const numbers: number[] = [];
  for (const field of splitQuoted(rest)) {
    const value = toInt(field);
    if (value === undefined) {
      if (field.length > 0) storage = field;
      continue;
    }
    numbers.push(value);
    if (numbers.length === 2) {
      const [used = 0, total = 0] = numbers;
      usage.push(storage === undefined ? { used, total } : { storage, used, total });
      numbers.length = 0;
      storage = undefined;
    }
  }
  return usage;
}

export interface StorageOptions {
  /** Memories allowed for reading and deleting (<mem1>). */
  mem1: string[];
  /** Memories allowed for writing and sending (<mem2>). */
  mem2: string[];
  /** Memories for new messages (<mem3>); empty when the modem accepts only two parameters. */
  mem3: string[];
}

/**
 * `+CPMS=?`: `("SM","ME"),("SM","ME"),("SM","ME")`, with spaces (Alcatel), nested in one more
 * pair of parentheses (Wavecom: `(("SM","BM","SR"),("SM"))`, which also means only two
 * parameters are accepted) or empty (Samsung J700: `+CPMS: `).
 */
export function parseCpmsOptions(lines: readonly string[]): StorageOptions | undefined {
  const found = findPrefixed(lines, '+CPMS');
  if (found === undefined) return undefined;
  // Memory names are letters and underscores: quotes carry nothing, and one a modem left out
  // (`(ME", "SR"), …`, gammu tests/at-cpms-sr/generic.dump) would swallow the whole list.
  const rest = found.replace(/"/g, '');
  let lists: ListItem[] = parseLists(rest);
  const only = lists[0];
  if (lists.length === 1 && Array.isArray(only) && only.length > 0 && only.every(Array.isArray)) lists = only;
  return { mem1: tokensOf(lists[0]), mem2: tokensOf(lists[1]), mem3: tokensOf(lists[2]) };
}

export interface CnmiOptions {
  mode: number[];
  mt: number[];
  bm: number[];
  ds: number[];
  bfr: number[];
}

/** `+CNMI: (2),(0-1,3),(0,2),(0-1),(0)` → the values each parameter allows. */
export function parseCnmiOptions(lines: readonly string[]): CnmiOptions | undefined {
  const rest = findPrefixed(lines, '+CNMI');
  if (rest === undefined) return undefined;
  const lists = parseLists(rest);
  const values = (index: number) => expandRanges(tokensOf(lists[index]));
  return { mode: values(0), mt: values(1), bm: values(2), ds: values(3), bfr: values(4) };
}

export interface CnmiSettings {
  mode: number;
  mt: number;
  bm: number;
  ds: number;
  bfr: number;
}

/**
 * Chooses AT+CNMI values from what the modem allows (TS 27.005 §3.4.1):
 * - mode 2 buffers indications while the link is busy (no lost +CMTI mid-command), else 1;
 * - mt 1: store the SMS and send +CMTI. The gateway reads, saves and only then deletes, so a
 *   crash cannot lose a message; mt 2 (+CMT) would need +CNMA acknowledgement (phase 2+);
 * - ds 2: store the status report and send +CDSI, else 1 (+CDS direct), else 0;
 * - bm 0 (no cell broadcast) and bfr 0 (flush buffered indications) when allowed.
 * Each parameter falls back to the first allowed value, or 0 when the modem lists none.
 */
export function chooseCnmiSettings(options: CnmiOptions): CnmiSettings {
  const pick = (allowed: readonly number[], preferred: readonly number[]) =>
    preferred.find((value) => allowed.includes(value)) ?? allowed[0] ?? 0;
  return {
    mode: pick(options.mode, [2, 1]),
    mt: pick(options.mt, [1, 2]),
    bm: pick(options.bm, [0]),
    ds: pick(options.ds, [2, 1, 0]),
    bfr: pick(options.bfr, [0]),
  };
}

export interface PduListEntry {
  /** Storage index; 0 is a valid index (python-gsmmodem's fake modem starts there). */
  index: number;
  /** TS 27.005 §3.1 <stat>: 0 received unread, 1 received read, 2 stored unsent, 3 stored sent. */
  stat: number;
  alpha?: string;
  /** TPDU length in octets (without the SMSC part). */
  length: number;
  pdu: string;
}

/**
 * The PDU of a listing or read line: the hex, without the stray quote some modems leave after
 * it (`…A301"`, gammu tests/at-sms/04.dump).
 */
function pduLine(line: string | undefined): string | undefined {
  return line?.trim().replace(/^"|"$/g, '');
}

/** PDU-mode `+CMGL: <index>,<stat>,[<alpha>],<length>` headers, each followed by its PDU line. */
export function parseCmglPdu(lines: readonly string[]): PduListEntry[] {
  const entries: PduListEntry[] = [];
  for (let i = 0; i < lines.length; i++) {
    const rest = afterPrefix(lines[i] ?? '', '+CMGL');
    const pdu = pduLine(lines[i + 1]);
    if (rest === undefined || pdu === undefined) continue;
    const fields = splitQuoted(rest);
    const index = toInt(fields[0]);
    const stat = toInt(fields[1]);
    const length = toInt(fields[fields.length - 1]);
    if (index === undefined || stat === undefined || length === undefined) continue;
    const entry: PduListEntry = { index, stat, length, pdu };
    const alpha = fields.length >= 4 ? fields[2] : undefined;
    if (alpha) entry.alpha = alpha;
    entries.push(entry);
    i++;
  }
  return entries;
}

export interface PduRead {
  /** <stat>; undefined when the modem leaves it empty (ZTE: `+CMGR: ,,27`) or omits it. */
  stat?: number;
  alpha?: string;
  length: number;
  pdu: string;
}

/**
 * PDU-mode `+CMGR: <stat>,[<alpha>],<length>` and the PDU on the next line. Also accepts an
 * empty <stat> (`+CMGR: ,,92`) and the old header with only the length (`+CMGR: 24`, gammu
 * tests/at-sms/38.dump). Undefined when the storage slot is empty (just OK).
 */
export function parseCmgrPdu(lines: readonly string[]): PduRead | undefined {
  const headerIndex = lines.findIndex((line) => afterPrefix(line, '+CMGR') !== undefined);
  if (headerIndex < 0) return undefined;
  const fields = splitQuoted(afterPrefix(lines[headerIndex] ?? '', '+CMGR') ?? '');
  const pdu = pduLine(lines[headerIndex + 1]);
  const length = toInt(fields[fields.length - 1]);
  if (pdu === undefined || length === undefined) return undefined;
  const read: PduRead = { length, pdu };
  if (fields.length >= 2) {
    const stat = toInt(fields[0]);
    if (stat !== undefined) read.stat = stat;
  }
  const alpha = fields.length >= 3 ? fields[1] : undefined;
  if (alpha) read.alpha = alpha;
  return read;
}

/** `+CMGS: <mr>`: the TP-Message-Reference (0–255) the status report will carry. */
export function parseCmgs(lines: readonly string[]): number | undefined {
  const rest = findPrefixed(lines, '+CMGS');
  return rest === undefined ? undefined : toInt(splitLoose(rest)[0]);
}

export interface ServiceCentre {
  /** Undefined when the SIM has none (`+CSCA: "",129`, gammu tests/at-smsc-failing). */
  address?: string;
  /** TS 24.008 type of address: 145 international, 129 unknown. */
  type?: number;
}

/**
 * `+CSCA: "+447785016005",145` (TS 27.005 §3.3.1). A modem whose character set is UCS2 writes
 * the address as hex of its UTF-16 code units, quoted or not (gammu tests/at-smsc/01.dump,
 * 05.dump); type 145 (international, TS 24.008 §10.5.4.7) with no `+` written gets one
 * (`"6281100000",145`, tests/at-smsc/03.dump).
 */
export function parseCsca(lines: readonly string[]): ServiceCentre | undefined {
  const rest = findPrefixed(lines, '+CSCA');
  if (rest === undefined) return undefined;
  const [written, type] = splitQuoted(rest);
  const centre: ServiceCentre = {};
  const typeValue = toInt(type);
  if (typeValue !== undefined) centre.type = typeValue;
  const address = written === undefined ? undefined : (addressOfUcs2Hex(written) ?? written);
  if (address)
    centre.address = typeValue === internationalType && /^\d/.test(address) ? `+${address}` : address;
  return centre;
}

/** TS 24.008 §10.5.4.7: type of number international, numbering plan ISDN/E.164. */
const internationalType = 145;

/** A number written as UCS-2 hex (`002B0039…`), or undefined when it is not one. */
function addressOfUcs2Hex(written: string): string | undefined {
  if (!/^(?:00[0-9A-Fa-f]{2})+$/.test(written)) return undefined;
  const text = Buffer.from(written, 'hex').swap16().toString('utf16le');
  return /^\+?\d+$/.test(text) ? text : undefined;
}

export interface OwnNumber {
  alpha?: string;
  number: string;
  type?: number;
}

/** `+CNUM: [<alpha>],<number>,<type>` lines (TS 27.007 §7.1); SIMs without one answer just OK. */
export function parseCnum(lines: readonly string[]): OwnNumber[] {
  const numbers: OwnNumber[] = [];
  for (const line of lines) {
    const rest = afterPrefix(line, '+CNUM');
    if (rest === undefined) continue;
    const [alpha, number, type] = splitQuoted(rest);
    if (!number) continue;
    const entry: OwnNumber = { number };
    if (alpha) entry.alpha = alpha;
    const typeValue = toInt(type);
    if (typeValue !== undefined) entry.type = typeValue;
    numbers.push(entry);
  }
  return numbers;
}
