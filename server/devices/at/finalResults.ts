/**
 * Final result codes: the lines that end a command's response (V.250 §5.7.2, TS 27.005 §3.2.5,
 * TS 27.007 §9.2) plus the vendor spellings seen in the field. Pure.
 */
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

export type FinalResult =
  | { kind: 'ok' }
  | {
      kind: 'error';
      /** AtError for plain failures, CmsError / CmeError for the numbered families. */
      code: typeof ErrorCode.AtError | typeof ErrorCode.CmsError | typeof ErrorCode.CmeError;
      /** The +CMS / +CME number, also when the modem used the verbose text form (AT+CMEE=2). */
      modemCode?: number;
      line: string;
    };

/** TS 27.005 §3.2.5 <err> values, keyed by their verbose text (lower case). */
const cmsVerbose: ReadonlyMap<string, number> = new Map([
  ['me failure', 300],
  ['sms service of me reserved', 301],
  ['operation not allowed', 302],
  ['operation not supported', 303],
  ['invalid pdu mode parameter', 304],
  ['invalid text mode parameter', 305],
  ['sim not inserted', 310],
  ['sim pin required', 311],
  ['ph-sim pin required', 312],
  ['sim failure', 313],
  ['sim busy', 314],
  ['sim wrong', 315],
  ['sim puk required', 316],
  ['sim pin2 required', 317],
  ['sim puk2 required', 318],
  ['memory failure', 320],
  ['invalid memory index', 321],
  ['memory full', 322],
  ['smsc address unknown', 330],
  ['no network service', 331],
  ['network timeout', 332],
  ['no +cnma acknowledgement expected', 340],
  ['unknown error', 500],
]);

/** TS 27.007 §9.2.1 <err> values, keyed by their verbose text (lower case). */
const cmeVerbose: ReadonlyMap<string, number> = new Map([
  ['phone failure', 0],
  ['no connection to phone', 1],
  ['phone-adaptor link reserved', 2],
  ['operation not allowed', 3],
  ['operation not supported', 4],
  ['ph-sim pin required', 5],
  ['sim not inserted', 10],
  ['sim pin required', 11],
  ['sim puk required', 12],
  ['sim failure', 13],
  ['sim busy', 14],
  ['sim wrong', 15],
  ['incorrect password', 16],
  ['sim pin2 required', 17],
  ['sim puk2 required', 18],
  ['memory full', 20],
  ['invalid index', 21],
  ['not found', 22],
  ['memory failure', 23],
  ['text string too long', 24],
  ['invalid characters in text string', 25],
  ['dial string too long', 26],
  ['invalid characters in dial string', 27],
  ['no network service', 30],
  ['network timeout', 31],
  ['network not allowed - emergency calls only', 32],
  ['unknown', 100],
]);

/**
 * Plain failures. `COMMAND NOT SUPPORT` is how Huawei E1752 rejects unknown commands;
 * `TOO MANY PARAMETERS` comes from older Siemens/Wavecom firmware (both recorded by gammu's
 * libgammu/protocol/at/at.c). `NO CARRIER` here is only consulted for call-control commands,
 * see `isCallControlCommand`.
 */
const plainErrors: ReadonlySet<string> = new Set(['ERROR', 'COMMAND NOT SUPPORT', 'TOO MANY PARAMETERS']);

const numbered = /^\+(CMS|CME) ERROR:\s*(.*)$/i;

/** Classifies one complete line; undefined when it is not a final result. */
export function classifyFinalResult(line: string, command?: string): FinalResult | undefined {
  const text = line.trim();
  if (text === 'OK') return { kind: 'ok' };
  if (plainErrors.has(text)) return { kind: 'error', code: ErrorCode.AtError, line: text };
  if (text === 'NO CARRIER' && command !== undefined && isCallControlCommand(command)) {
    return { kind: 'error', code: ErrorCode.AtError, line: text };
  }
  const match = numbered.exec(text);
  if (!match) return undefined;
  const family = (match[1] ?? '').toUpperCase();
  const detail = (match[2] ?? '').trim();
  const table = family === 'CMS' ? cmsVerbose : cmeVerbose;
  const modemCode = /^\d+$/.test(detail) ? Number(detail) : table.get(detail.toLowerCase());
  const code = family === 'CMS' ? ErrorCode.CmsError : ErrorCode.CmeError;
  return modemCode === undefined
    ? { kind: 'error', code, line: text }
    : { kind: 'error', code, modemCode, line: text };
}

/**
 * V.250 §6.3: NO CARRIER is a final result of ATD / ATA / ATO (and ATH on some modems). For any
 * other command it can only be the end of a call that was up: an unsolicited line.
 */
export function isCallControlCommand(command: string): boolean {
  return /^AT[DAOH]/i.test(command.trim());
}

/** The GatewayError a failed final result stands for, naming the command. */
export function finalResultError(
  result: Extract<FinalResult, { kind: 'error' }>,
  command: string,
  partialResponse: readonly string[],
): GatewayError {
  return new GatewayError(result.code, `${command} failed: ${result.line}`, {
    modemCode: result.modemCode,
    partialResponse,
  });
}
