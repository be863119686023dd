/**
 * Final result codes and their framing.
 *
 * - V.250 §5.7.1: with verbose results (ATV1, the default) every response is framed
 *   `<CR><LF>text<CR><LF>`; lines of one information response are separated by `<CR><LF>`.
 * - TS 27.007 §9.1 (+CMEE): 0 answers a failure with plain `ERROR`, 1 with the numeric
 *   `+CME ERROR: <n>` / `+CMS ERROR: <n>`, 2 with the verbose text.
 * - The texts are the ones TS 27.007 §9.2 and TS 27.005 §3.2.5 give for each code.
 */
export type AtFailure = { kind: 'error' } | { kind: 'cme'; code: number } | { kind: 'cms'; code: number };

export type ErrorVerbosity = 0 | 1 | 2;

/** The +CME codes the simulator answers with itself. */
export const CmeCode = {
  OperationNotAllowed: 3,
  OperationNotSupported: 4,
  SimPinRequired: 11,
  SimPukRequired: 12,
  IncorrectPassword: 16,
} as const;

/** The +CMS codes the simulator answers with itself (tests inject any other with failSends). */
export const CmsCode = {
  OperationNotAllowed: 302,
  OperationNotSupported: 303,
  InvalidPduModeParameter: 304,
  InvalidMemoryIndex: 321,
  NoNetworkService: 331,
  NoCnmaExpected: 340,
} as const;

const cmeTexts: Record<number, string> = {
  0: 'phone failure',
  3: 'operation not allowed',
  4: 'operation not supported',
  10: 'SIM not inserted',
  11: 'SIM PIN required',
  12: 'SIM PUK required',
  13: 'SIM failure',
  14: 'SIM busy',
  16: 'incorrect password',
  21: 'invalid index',
  25: 'invalid characters in text string',
  30: 'no network service',
  100: 'unknown',
};

const cmsTexts: Record<number, string> = {
  // TS 24.011 Annex E RP-causes, the ones an SMSC commonly returns to a send.
  1: 'Unassigned (unallocated) number',
  8: 'Operator determined barring',
  21: 'Short message transfer rejected',
  38: 'Network out of order',
  41: 'Temporary failure',
  42: 'Congestion',
  47: 'Resources unavailable, unspecified',
  300: 'ME failure',
  301: 'SMS service of ME reserved',
  302: 'operation not allowed',
  303: 'operation not supported',
  304: 'invalid PDU mode parameter',
  305: 'invalid text mode parameter',
  310: 'SIM not inserted',
  311: 'SIM PIN required',
  313: 'SIM failure',
  314: 'SIM busy',
  316: 'SIM PUK required',
  320: 'memory failure',
  321: 'invalid memory index',
  322: 'memory full',
  330: 'SMSC address unknown',
  331: 'no network service',
  332: 'network timeout',
  340: 'no +CNMA acknowledgement expected',
  500: 'unknown error',
};

/** The final result line for a failure at the given +CMEE level. */
export function failureLine(failure: AtFailure, verbosity: ErrorVerbosity): string {
  if (failure.kind === 'error' || verbosity === 0) return 'ERROR';
  const prefix = failure.kind === 'cme' ? '+CME ERROR' : '+CMS ERROR';
  const text = (failure.kind === 'cme' ? cmeTexts : cmsTexts)[failure.code];
  // Modems print the number when they have no text for a code, even at +CMEE=2.
  return `${prefix}: ${verbosity === 2 && text !== undefined ? text : failure.code}`;
}

/** One information response (or unsolicited result code) of one or more lines, framed. */
export function frameResponse(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `\r\n${lines.join('\r\n')}\r\n`;
}
