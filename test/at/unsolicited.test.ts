import { describe, expect, it } from 'vitest';
import { classifyUnsolicited } from '../../server/devices/at/unsolicited.js';

describe('classifyUnsolicited', () => {
  it.each([
    ['+CMTI: "SM",3', '+CMTI', '"SM",3'],
    ['+CDSI: "SM",1', '+CDSI', '"SM",1'],
    ['RING', 'RING', ''],
    ['+CLIP: "+447700900123",145', '+CLIP', '"+447700900123",145'],
    ['+CRING: VOICE', '+CRING', 'VOICE'],
    ['^RSSI: 17', '^RSSI', '17'],
    ['^BOOT: 1,0,0,0,0', '^BOOT', '1,0,0,0,0'],
    ['^MODE: 5,4', '^MODE', '5,4'],
    ['^SRVST: 2', '^SRVST', '2'],
    ['^SIMST: 1', '^SIMST', '1'],
    ['+ZDONR: "METEOR",272,3,"CS_ONLY","ROAM_OFF"', '+ZDONR', '"METEOR",272,3,"CS_ONLY","ROAM_OFF"'],
    ['+ZPASR: "UMTS"', '+ZPASR', '"UMTS"'],
    ['+ZUSIMR: 2', '+ZUSIMR', '2'],
    ['+ZEND', '+ZEND', ''],
    ['+QIND: SMS DONE', '+QIND', 'SMS DONE'],
    ['+CIEV: 2,3', '+CIEV', '2,3'],
    ['+PACSP: 1', '+PACSP', '1'],
    ['SMS DONE', 'SMS DONE', ''],
    ['PB DONE', 'PB DONE', ''],
    ['+STIN: 25', '+STIN', '25'],
    ['RDY', 'RDY', ''],
    ['Call Ready', 'Call Ready', ''],
  ])('classifies %s as the unsolicited code %s, even mid-command', (line, name, args) => {
    expect(classifyUnsolicited(line, 'AT+CMGL=4')).toEqual({ name, args, takesNextLine: false });
  });

  it('treats +CMT and +CBM headers as taking the next line (their PDU)', () => {
    expect(classifyUnsolicited('+CMT: ,24', undefined)).toEqual({
      name: '+CMT',
      args: ',24',
      takesNextLine: true,
    });
    expect(classifyUnsolicited('+CBM: 88', undefined)?.takesNextLine).toBe(true);
  });

  it('takes the next line for a PDU-mode +CDS but not for the one-line text-mode report', () => {
    expect(classifyUnsolicited('+CDS: 25', undefined)?.takesNextLine).toBe(true);
    expect(
      classifyUnsolicited('+CDS: 6,183,"+447700900123",145,"26/01/01,10:00:00+00"', undefined)?.takesNextLine,
    ).toBe(false);
  });

  it('does not take +CMTI for the +CMT header', () => {
    expect(classifyUnsolicited('+CMTI: "ME",0', undefined)?.name).toBe('+CMTI');
  });

  it.each([
    ['+CREG: 2,1,"4CA","81DE445"', 'AT+CREG?'],
    ['+CGREG: 0,1', 'AT+CGREG?'],
    ['+CEREG: 0,1', 'at+cereg?'],
    ['+CPIN: READY', 'AT+CPIN?'],
    ['+CLIP: 0,1', 'AT+CLIP?'],
  ])('leaves %s to the command %s that asked for it', (line, command) => {
    expect(classifyUnsolicited(line, command)).toBeUndefined();
  });

  it.each([
    ['+CREG: 1,"4CA","81DE445"', 'AT+CSQ'],
    ['+CGREG: 5', 'AT+COPS?'],
    ['+CEREG: 1', undefined],
    ['+CPIN: READY', 'AT+CFUN=1'],
    ['+CPIN: SIM PIN', undefined],
  ])('routes %s as unsolicited while %s is in flight', (line, command) => {
    expect(classifyUnsolicited(line, command)).toBeDefined();
  });

  it('treats NO CARRIER as unsolicited when idle or during a non-call command', () => {
    expect(classifyUnsolicited('NO CARRIER', undefined)?.name).toBe('NO CARRIER');
    expect(classifyUnsolicited('NO CARRIER', 'AT+CSQ')?.name).toBe('NO CARRIER');
  });

  it('leaves NO CARRIER to a dial command as its final result', () => {
    expect(classifyUnsolicited('NO CARRIER', 'ATD+447700900123;')).toBeUndefined();
  });

  it.each(['OK', '+CMGS: 12', '+CSQ: 20,99', '+CMGL: 0,0,,35', 'ERROR', 'Quectel', '+CMTX: 1'])(
    'is not fooled by the response line %s',
    (line) => {
      expect(classifyUnsolicited(line, 'AT+CMGS=23')).toBeUndefined();
    },
  );
});
