import { describe, expect, it } from 'vitest';
import { parseCommandLine, splitArguments } from '../../server/devices/simulator/atCommandLine.js';
import { ModemInput } from '../../server/devices/simulator/modemInput.js';

describe('parseCommandLine', () => {
  it.each([
    ['AT', []],
    ['at+cmgf=0', [{ name: '+CMGF', form: 'set', args: '0' }]],
    ['AT+CMGF?', [{ name: '+CMGF', form: 'read', args: '' }]],
    ['AT+CMGF=?', [{ name: '+CMGF', form: 'test', args: '' }]],
    ['AT+CGMI', [{ name: '+CGMI', form: 'action', args: '' }]],
    ['AT^ICCID?', [{ name: '^ICCID', form: 'read', args: '' }]],
    [
      'ATE0&F',
      [
        { name: 'E', form: 'action', args: '0' },
        { name: '&F', form: 'action', args: '' },
      ],
    ],
    [
      'AT+CPIN="12;34";+CSQ',
      [
        { name: '+CPIN', form: 'set', args: '"12;34"' },
        { name: '+CSQ', form: 'action', args: '' },
      ],
    ],
  ])('reads %s', (line, expected) => {
    expect(parseCommandLine(line)).toEqual(expected);
  });

  it('rejects text that is not AT syntax', () => {
    expect(parseCommandLine('hello')).toBeUndefined();
    expect(parseCommandLine('AT+')).toBeUndefined();
    expect(parseCommandLine('AT#')).toBeUndefined();
  });
});

describe('splitArguments', () => {
  it('splits at commas outside quotes and keeps empty fields', () => {
    expect(splitArguments('"SM","S,M",1')).toEqual(['SM', 'S,M', '1']);
    expect(splitArguments('2,1,,2')).toEqual(['2', '1', '', '2']);
    expect(splitArguments('')).toEqual([]);
  });
});

describe('ModemInput', () => {
  it('returns complete lines only, skipping the empty ones CR LF leaves', () => {
    const input = new ModemInput();
    input.push(Buffer.from('AT\r\nAT+C'));
    expect(input.takeLine()).toBe('AT');
    expect(input.takeLine()).toBeUndefined();
    input.push(Buffer.from('SQ\n'));
    expect(input.takeLine()).toBe('AT+CSQ');
  });

  it('returns a PDU body at Ctrl-Z without whitespace, and an abort at ESC', () => {
    const input = new ModemInput();
    input.push(Buffer.from('\n0011\r\n00\x1a'));
    expect(input.takePduBody()).toEqual({ kind: 'submitted', hex: '001100' });
    input.push(Buffer.from('0011'));
    expect(input.takePduBody()).toBeUndefined();
    input.push(Buffer.from('\x1bAT\r'));
    expect(input.takePduBody()).toEqual({ kind: 'aborted' });
    expect(input.takeLine()).toBe('AT');
  });
});
