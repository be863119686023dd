import { describe, expect, it } from 'vitest';
import { PduMask } from '../../server/devices/at/pduMask.js';

/** `»` written, `«` received: each line as the mask lets it be shown. */
function shown(traffic: readonly string[]): string[] {
  const mask = new PduMask();
  return traffic.map((entry) => {
    const line = entry.slice(2);
    return `${entry.slice(0, 2)}${entry.startsWith('»') ? mask.sent(line) : mask.received(line)}`;
  });
}

/** A status report as +CMGR shows it (25 octets with the SMSC field), from test/at/parsers. */
const report = '079144770009000006000C91447700090000621172111001006211721110110000';
/** A one-part SMS-SUBMIT, 16 octets. */
const submit = '0011000B915121436587F90000AA03C8F40F';

describe('SMS PDUs in shown AT traffic', () => {
  it.each([
    [
      'the PDU written after the prompt of AT+CMGS',
      ['» AT+CMGS=15\r', '« > ', `» ${submit}\u001a`, '« +CMGS: 7', '« OK'],
      ['» AT+CMGS=15\r', '« > ', '» <PDU hidden: 18 bytes>\u001a', '« +CMGS: 7', '« OK'],
    ],
    [
      'the line after +CMGR: and after each +CMGL: header',
      [
        '« +CMGR: 0,,25',
        `« ${report}`,
        '« OK',
        '« +CMGL: 3,0,,25',
        `« ${report}`,
        '« +CMGL: 4,1,,25',
        `« ${report}`,
      ],
      [
        '« +CMGR: 0,,25',
        '« <PDU hidden: 33 bytes>',
        '« OK',
        '« +CMGL: 3,0,,25',
        '« <PDU hidden: 33 bytes>',
        '« +CMGL: 4,1,,25',
        '« <PDU hidden: 33 bytes>',
      ],
    ],
    [
      'the PDU lines of +CMT and +CDS, but not the slot of +CDSI',
      ['« +CMT: ,25', `« ${report}`, '« +CDS: 25', `« ${report}`, '« +CDSI: "SM",3'],
      [
        '« +CMT: ,25',
        '« <PDU hidden: 33 bytes>',
        '« +CDS: 25',
        '« <PDU hidden: 33 bytes>',
        '« +CDSI: "SM",3',
      ],
    ],
    [
      'the echo of a PDU while echo is on',
      [
        '» AT+CMGS=15\r',
        '« AT+CMGS=15',
        `« > ${submit}\u001a`,
        '« +CMGS: 8',
        '« OK',
        '« 8944100000000000001',
      ],
      [
        '» AT+CMGS=15\r',
        '« AT+CMGS=15',
        '« > <PDU hidden: 18 bytes>\u001a',
        '« +CMGS: 8',
        '« OK',
        '« 8944100000000000001',
      ],
    ],
    [
      'nothing else that is all digits: an IMEI, an ICCID',
      ['» AT+CGSN\r', '« 356938035643809', '« OK', '» AT+CCID\r', '« 89441000000000000001', '« OK'],
      ['» AT+CGSN\r', '« 356938035643809', '« OK', '» AT+CCID\r', '« 89441000000000000001', '« OK'],
    ],
  ])('hides %s, saying how many bytes', (_case, traffic, expected) => {
    expect(shown(traffic)).toEqual(expected);
  });
});
