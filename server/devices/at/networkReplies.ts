/**
 * Parsers for signal, registration, operator, SIM and radio-state replies (TS 27.007). Each
 * returns undefined when the reply does not carry the answer, so a driver can tell "no answer"
 * from a bad value. Pure.
 */
import {
  afterPrefix,
  expandRanges,
  findPrefixed,
  parseLists,
  splitLoose,
  splitQuoted,
  toInt,
  tokensOf,
} from './replyFields.js';

export interface SignalQuality {
  /** TS 27.007 §8.5 <rssi>: 0–31, 99 unknown (100–191 for TD-SCDMA). */
  rssi: number;
  /** <ber>: 0–7, 99 unknown. */
  ber: number;
  /** Received power in dBm; undefined when the modem does not know (99). */
  dbm?: number;
  /** 0–4 bars for the UI. */
  bars: number;
}

/** `+CSQ: <rssi>,<ber>`. */
export function parseCsq(lines: readonly string[]): SignalQuality | undefined {
  const rest = findPrefixed(lines, '+CSQ');
  if (rest === undefined) return undefined;
  const [rssiField, berField] = splitLoose(rest);
  const rssi = toInt(rssiField);
  if (rssi === undefined) return undefined;
  const ber = toInt(berField) ?? 99;
  const dbm = rssiToDbm(rssi);
  return dbm === undefined ? { rssi, ber, bars: 0 } : { rssi, ber, dbm, bars: dbmToBars(dbm) };
}

/** TS 27.007 §8.5: 0 → ≤ -113 dBm, 1 → -111, 2..30 → -109..-53 in 2 dB steps, 31 → ≥ -51. */
function rssiToDbm(rssi: number): number | undefined {
  if (rssi >= 0 && rssi <= 31) return -113 + 2 * rssi;
  // TD-SCDMA extension: 100 → -116 dBm … 191 → -25 dBm in 1 dB steps.
  if (rssi >= 100 && rssi <= 191) return rssi - 216;
  return undefined;
}

/** Bar thresholds as phones draw them for GSM/UMTS RSSI. */
function dbmToBars(dbm: number): number {
  if (dbm >= -73) return 4;
  if (dbm >= -83) return 3;
  if (dbm >= -93) return 2;
  if (dbm >= -109) return 1;
  return 0;
}

export interface Registration {
  /** <n>, present only in the query form (the answer to AT+CREG?, which some modems also send unsolicited). */
  n?: number;
  /** TS 27.007 §7.2 <stat>: 0 not registered, 1 home, 2 searching, 3 denied, 4 unknown, 5 roaming… */
  stat: number;
  /** Registered for SMS: home or roaming, including the E-UTRAN "SMS only" states 6 and 7. */
  registered: boolean;
  roaming: boolean;
  /** Location area (or tracking area) code, upper-case hex. */
  lac?: string;
  /** Cell id, upper-case hex. */
  ci?: string;
  /** <AcT>: 0 GSM, 2 UTRAN, 7 E-UTRAN … */
  act?: number;
}

/**
 * `+CREG` / `+CGREG` / `+CEREG` (TS 27.007 §7.2, §10.1.20, §10.1.22). The answer to the query
 * starts with <n> (`+CREG: 2,1,"4CA","81DE445"`), the unsolicited code with <stat>
 * (`+CREG: 1,"4CA","81DE445"`); several modems send the query form unsolicited, so the fields
 * say which form a line has, not who sent it. `source` only says whether the line may come
 * without its prefix (the args of an unsolicited code). Hex without quotes (Huawei), a
 * trailing AcT (Sierra 312U) and mismatched quotes are accepted.
 */
export function parseRegistration(
  line: string,
  source: 'query' | 'unsolicited',
  prefix: '+CREG' | '+CGREG' | '+CEREG' = '+CREG',
): Registration | undefined {
  const rest = afterPrefix(line, prefix) ?? (source === 'unsolicited' ? line.trim() : undefined);
  if (rest === undefined || rest.length === 0) return undefined;
  const fields = registrationFields(rest);
  const withN = startsWithN(fields);
  const [statField, ...location] = withN ? fields.slice(1) : fields;
  const stat = toInt(statField?.text);
  if (stat === undefined) return undefined;
  const registration: Registration = {
    stat,
    registered: stat === 1 || stat === 5 || stat === 6 || stat === 7,
    roaming: stat === 5 || stat === 7,
  };
  const n = withN ? toInt(fields[0]?.text) : undefined;
  if (n !== undefined) registration.n = n;
  const [lacField, ciField, actField] = withoutEarlyLteRac(prefix, location);
  const lac = hexField(lacField?.text);
  const ci = hexField(ciField?.text);
  const act = toInt(actField?.text);
  if (lac !== undefined) registration.lac = lac;
  if (ci !== undefined) registration.ci = ci;
  if (act !== undefined) registration.act = act;
  return registration;
}

interface RegistrationField {
  text: string;
  quoted: boolean;
}

/** Split on every comma, as `splitLoose`, but remember which fields were quoted. */
function registrationFields(rest: string): RegistrationField[] {
  return rest
    .split(',')
    .map((field) => ({ text: field.replaceAll('"', '').trim(), quoted: field.includes('"') }));
}

/**
 * Whether the second field is a <stat>, so the first is <n>. A <stat> is a bare number of one or
 * two digits; a <lac> is quoted (27.007 makes it a string), or unquoted hex of more than two
 * digits ("+CREG: 1,0001,0010,0"), or empty ("+CREG: 2,,"). A longer bare number is a
 * zero-padded <stat> only when a quoted <lac> follows it ("+CGREG:002,0011,"0f0d","14c3"").
 */
function startsWithN(fields: readonly RegistrationField[]): boolean {
  const second = fields[1];
  if (second === undefined || second.quoted || !/^\d+$/.test(second.text)) return false;
  return second.text.length <= 2 || fields[2]?.quoted === true;
}

/**
 * Early LTE modems (Novatel E362 in ModemManager's tests) put a one-byte routing area code
 * between <tac> and <ci> in +CEREG: <tac>,<rac>,<ci>,<AcT>. Only that form has four fields after
 * <stat>: the standard one has three, the cause-reporting ones (<n>=3 and 4) five or seven.
 * +CGREG's <rac> comes after <AcT> (TS 27.007 §10.1.20), where it is ignored anyway.
 */
function withoutEarlyLteRac(
  prefix: '+CREG' | '+CGREG' | '+CEREG',
  location: readonly RegistrationField[],
): readonly (RegistrationField | undefined)[] {
  if (prefix !== '+CEREG' || location.length !== 4) return location;
  const [tac, , ci, act] = location;
  return [tac, ci, act];
}

function hexField(field: string | undefined): string | undefined {
  return field !== undefined && /^[0-9A-Fa-f]+$/.test(field) ? field.toUpperCase() : undefined;
}

export interface OperatorSelection {
  /** TS 27.007 §7.3 <mode>: 0 automatic, 1 manual, 2 deregister … */
  mode: number;
  /** <format>: 0 long alphanumeric, 1 short, 2 numeric (MCC+MNC). */
  format?: number;
  operator?: string;
  act?: number;
}

/** `+COPS: <mode>[,<format>,<oper>[,<AcT>]]` (the operator is absent when unregistered). */
export function parseCops(lines: readonly string[]): OperatorSelection | undefined {
  const rest = findPrefixed(lines, '+COPS');
  if (rest === undefined) return undefined;
  const fields = splitQuoted(rest);
  const mode = toInt(fields[0]);
  if (mode === undefined) return undefined;
  const selection: OperatorSelection = { mode };
  const format = toInt(fields[1]);
  if (format !== undefined) selection.format = format;
  const operator = fields[2]?.trim();
  if (operator) selection.operator = operator;
  const act = toInt(fields[3]);
  if (act !== undefined) selection.act = act;
  return selection;
}

export interface PinState {
  /** TS 27.007 §8.3 <code>: 'READY', 'SIM PIN', 'SIM PUK', 'PH-SIM PIN' … */
  code: string;
  ready: boolean;
}

/**
 * `+CPIN: READY`, or the code alone (`READY`): some modems leave out the prefix, and ModemManager's
 * mm_parse_cpin_response reads both. Without the prefix only a §8.3 <code> counts, so no other
 * line (an echo, an error) is taken for one.
 */
export function parseCpin(lines: readonly string[]): PinState | undefined {
  const rest =
    findPrefixed(lines, '+CPIN') ?? lines.map((line) => line.trim()).find((line) => pinCode.test(line));
  if (rest === undefined) return undefined;
  const code = rest.replaceAll('"', '').trim().toUpperCase();
  if (code.length === 0) return undefined;
  return { code, ready: code === 'READY' };
}

/** TS 27.007 §8.3 <code> values, and PH-SIM PUK, which Siemens modems add. */
const pinCode = /^(READY|SIM P(IN|UK)2?|PH-(SIM|FSIM|NET|NETSUB|SP|CORP) P(IN|UK))$/;

/** `+CGSMS: <service>` (TS 27.007 §10.1.20), or `+WS46: <n>` (§5.9): the one number. */
export function parseSingleValue(lines: readonly string[], prefix: '+CGSMS' | '+WS46'): number | undefined {
  const rest = findPrefixed(lines, prefix);
  return rest === undefined ? undefined : toInt(rest.trim());
}

/**
 * The test form `+CGSMS: (0-3)` or `+WS46: (12,22,25)`: every value offered. TS 27.007 §5.9
 * writes the +WS46=? answer as a bare list, `(12,22,25,28,29)`, and so do Cinterion and
 * Telit LE866; others add the prefix.
 */
export function parseOfferedValues(lines: readonly string[], prefix: '+CGSMS' | '+WS46'): number[] {
  const bareList =
    prefix === '+WS46' ? lines.map((line) => line.trim()).find((line) => line.startsWith('(')) : undefined;
  const rest = findPrefixed(lines, prefix) ?? bareList;
  if (rest === undefined) return [];
  return expandRanges(tokensOf(parseLists(rest)[0]));
}

/**
 * `+CFUN: <fun>[,…]` (TS 27.007 §8.2): the phone functionality level. Undefined when the modem
 * answers otherwise, e.g. ZTE sticks that answer `AT+CFUN?` in the test form
 * `+CFUN: (0-1,4-7),(0-1)` (ModemManager's ZTE plugin notes the same).
 */
export function parseCfun(lines: readonly string[]): number | undefined {
  const rest = findPrefixed(lines, '+CFUN');
  if (rest === undefined || rest.startsWith('(')) return undefined;
  return toInt(rest.split(',')[0]?.trim() ?? '');
}

/** `+CSCS: "GSM"` (TS 27.007 §5.5): the TE character set in use, upper-cased. */
export function parseCscs(lines: readonly string[]): string | undefined {
  const rest = findPrefixed(lines, '+CSCS');
  if (rest === undefined || rest.startsWith('(')) return undefined;
  const name = rest.replaceAll('"', '').trim().toUpperCase();
  return name === '' ? undefined : name;
}

/** `+CSCS: ("IRA","GSM","UCS2")`, or the list alone: every character set offered, upper-cased. */
export function parseCscsOptions(lines: readonly string[]): string[] {
  const rest =
    findPrefixed(lines, '+CSCS') ?? lines.map((line) => line.trim()).find((line) => line.startsWith('('));
  if (rest === undefined) return [];
  return tokensOf(parseLists(rest)[0]).map((name) => name.replaceAll('"', '').trim().toUpperCase());
}
