import { describe, expect, it } from 'vitest';
import { classifyFinalResult, finalResultError } from '../../server/devices/at/finalResults.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';

describe('classifyFinalResult', () => {
  it('recognises OK', () => {
    expect(classifyFinalResult('OK')).toEqual({ kind: 'ok' });
  });

  it.each(['ERROR', 'COMMAND NOT SUPPORT', 'TOO MANY PARAMETERS'])('maps %s to AtError', (line) => {
    expect(classifyFinalResult(line)).toEqual({ kind: 'error', code: ErrorCode.AtError, line });
  });

  it.each([
    ['+CMS ERROR: 500', ErrorCode.CmsError, 500],
    ['+CMS ERROR: 38', ErrorCode.CmsError, 38],
    ['+CME ERROR: 10', ErrorCode.CmeError, 10],
    ['+CMS ERROR: SIM busy', ErrorCode.CmsError, 314],
    ['+CMS ERROR: unknown error', ErrorCode.CmsError, 500],
    ['+CME ERROR: SIM PIN required', ErrorCode.CmeError, 11],
    ['+CME ERROR: incorrect password', ErrorCode.CmeError, 16],
  ])('reads %s as code %i with modem code %i', (line, code, modemCode) => {
    expect(classifyFinalResult(line)).toEqual({ kind: 'error', code, modemCode, line });
  });

  it('keeps a verbose error it does not know without a modem code', () => {
    expect(classifyFinalResult('+CME ERROR: vendor specific trouble')).toEqual({
      kind: 'error',
      code: ErrorCode.CmeError,
      line: '+CME ERROR: vendor specific trouble',
    });
  });

  it('makes NO CARRIER final only for call-control commands', () => {
    expect(classifyFinalResult('NO CARRIER', 'ATD123;')).toMatchObject({ kind: 'error' });
    expect(classifyFinalResult('NO CARRIER', 'AT+CSQ')).toBeUndefined();
  });

  it.each(['+CMGS: 3', 'OKAY', 'ERRORS', '+CSQ: 20,99'])('does not take %s for a final result', (line) => {
    expect(classifyFinalResult(line)).toBeUndefined();
  });

  it('builds an error naming the command and carrying the modem code and partial lines', () => {
    const result = classifyFinalResult('+CMS ERROR: 500');
    if (result?.kind !== 'error') throw new Error('expected an error result');
    const error = finalResultError(result, 'AT+CMGS=23', ['+ZPASR: x']);
    expect(error.code).toBe(ErrorCode.CmsError);
    expect(error.modemCode).toBe(500);
    expect(error.partialResponse).toEqual(['+ZPASR: x']);
    expect(error.message).toContain('AT+CMGS=23');
  });
});
