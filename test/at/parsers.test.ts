import { describe, expect, it } from 'vitest';
import { decodePdu } from '../../server/contract/pdu/index.js';
import {
  chooseCnmiSettings,
  parseCmglPdu,
  parseCmgrPdu,
  parseCmgs,
  parseCnmiOptions,
  parseCnum,
  parseCops,
  parseCpin,
  parseCpmsOptions,
  parseCpmsUsage,
  parseCsca,
  parseCsq,
  parseIccid,
  parseIdentity,
  parseRegistration,
} from '../../server/devices/at/parsers.js';

describe('parseCsq', () => {
  it.each([
    ['+CSQ: 0,99', { rssi: 0, ber: 99, dbm: -113, bars: 0 }],
    ['+CSQ: 2,0', { rssi: 2, ber: 0, dbm: -109, bars: 1 }],
    ['+CSQ: 10,99', { rssi: 10, ber: 99, dbm: -93, bars: 2 }],
    ['+CSQ: 15,99', { rssi: 15, ber: 99, dbm: -83, bars: 3 }],
    ['+CSQ: 31,99', { rssi: 31, ber: 99, dbm: -51, bars: 4 }],
    ['+CSQ: 99,99', { rssi: 99, ber: 99, bars: 0 }],
    ['+CSQ: 150,99', { rssi: 150, ber: 99, dbm: -66, bars: 4 }],
  ])('reads %s', (line, expected) => {
    expect(parseCsq([line])).toEqual(expected);
  });

  it('gives undefined without a +CSQ line', () => {
    expect(parseCsq(['OK'])).toBeUndefined();
  });
});

describe('parseRegistration', () => {
  it('reads an unsolicited +CREG without <n>', () => {
    expect(parseRegistration('+CREG: 5,"2AF5","0B88E350"', 'unsolicited')).toEqual({
      stat: 5,
      registered: true,
      roaming: true,
      lac: '2AF5',
      ci: '0B88E350',
    });
  });

  it('reads a roaming modem that sends the query form unsolicited as roaming, not searching', () => {
    // Sony Ericsson MD400 (ModemManager src/tests/test-modem-helpers.c, test_creg2_md400_unsolicited)
    expect(parseRegistration('+CREG: 2,5,"0502","0404736D"', 'unsolicited')).toEqual({
      n: 2,
      stat: 5,
      registered: true,
      roaming: true,
      lac: '0502',
      ci: '0404736D',
    });
  });

  it('reads the args of an unsolicited code as routed by the session', () => {
    expect(parseRegistration('2', 'unsolicited')).toEqual({ stat: 2, registered: false, roaming: false });
  });

  it('reads +CEREG with the E-UTRAN "SMS only" home state as registered', () => {
    expect(parseRegistration('+CEREG: 0,6', 'query', '+CEREG')).toMatchObject({ stat: 6, registered: true });
  });

  it('does not read another command family', () => {
    expect(parseRegistration('+CGREG: 0,1', 'query')).toBeUndefined();
  });
});

describe('parseCops', () => {
  it('reads mode, format, operator and access technology', () => {
    expect(parseCops(['+COPS: 0,0,"Vodafone UK",7'])).toEqual({
      mode: 0,
      format: 0,
      operator: 'Vodafone UK',
      act: 7,
    });
  });

  it('reads the bare mode when not registered', () => {
    expect(parseCops(['+COPS: 0'])).toEqual({ mode: 0 });
  });
});

describe('parseCpin', () => {
  it.each([
    ['+CPIN: READY', { code: 'READY', ready: true }],
    ['+CPIN: SIM PIN', { code: 'SIM PIN', ready: false }],
    ['+CPIN: "SIM PUK"', { code: 'SIM PUK', ready: false }],
    ['READY', { code: 'READY', ready: true }],
    ['SIM PIN', { code: 'SIM PIN', ready: false }],
  ])('reads %s', (line, expected) => {
    expect(parseCpin([line])).toEqual(expected);
  });

  it('takes no other bare line for a PIN state', () => {
    expect(parseCpin(['AT+CPIN?', 'ERROR'])).toBeUndefined();
  });
});

describe('parseCpmsUsage', () => {
  it('reads the query form with storage names', () => {
    expect(parseCpmsUsage(['+CPMS: "SM",3,30,"ME",0,100,"SM",3,30'])).toEqual([
      { storage: 'SM', used: 3, total: 30 },
      { storage: 'ME', used: 0, total: 100 },
      { storage: 'SM', used: 3, total: 30 },
    ]);
  });
});

describe('chooseCnmiSettings', () => {
  it('prefers buffered +CMTI and +CDSI indications', () => {
    const options = parseCnmiOptions(['+CNMI: (0-3),(0-3),(0,2),(0-2),(0,1)']);
    if (!options) throw new Error('expected CNMI options');
    expect(chooseCnmiSettings(options)).toEqual({ mode: 2, mt: 1, bm: 0, ds: 2, bfr: 0 });
  });

  it('falls back to direct +CDS and the first allowed value', () => {
    expect(chooseCnmiSettings({ mode: [1, 3], mt: [2, 3], bm: [], ds: [0, 1], bfr: [1] })).toEqual({
      mode: 1,
      mt: 2,
      bm: 0,
      ds: 1,
      bfr: 1,
    });
  });
});

describe('parseCmglPdu', () => {
  it('keeps an alpha field when the modem sends one', () => {
    expect(parseCmglPdu(['+CMGL: 7,1,"Mum",22', '0791ABCD'])).toEqual([
      { index: 7, stat: 1, alpha: 'Mum', length: 22, pdu: '0791ABCD' },
    ]);
  });

  it('gives an empty list for an empty storage', () => {
    expect(parseCmglPdu([])).toEqual([]);
  });
});

describe('parseCmgrPdu', () => {
  it('keeps an alpha field', () => {
    expect(parseCmgrPdu(['+CMGR: 1,"Bob",20', '00AA'])).toEqual({
      stat: 1,
      alpha: 'Bob',
      length: 20,
      pdu: '00AA',
    });
  });

  it('gives undefined for an empty storage slot', () => {
    expect(parseCmgrPdu([])).toBeUndefined();
  });

  it('reads the PDU a stray quote follows, which then decodes (gammu tests/at-sms/04.dump)', () => {
    // gammu/gammu tests/at-sms/04.dump at 78fd6a9212f3271a28c46f1cb8f7c302cd43a9b0, as the modem sent it.
    const hex =
      '07914487200030230406D04F59040000601191806243009F4F990E947DD741EEF71D840EDBCBA0FCBB2E0751CB783A28E8CED3D3ED3268068381AA4B10BD8CA7CF412650AC2904BDCD2072981E06D1DFA0FABC0CA2A3D373509B8E7681A4E576B92D2ECB41F43788FE86B7EA7010280603BDE5A0F65B5E0689CBE6B7BC0C8ADD6232980D447F83CE653A28FFAECB416679B90C0AB3D9EF7BD83D2E83DC653C1DD4A6A301';
    const read = parseCmgrPdu(['+CMGR: 1,,156', `${hex}"`]);
    expect(read?.pdu).toBe(hex);
    expect(decodePdu(read?.pdu ?? '').type).toBe('deliver');
  });
});

describe('parseCmgs', () => {
  it.each([
    ['+CMGS: 0', 0],
    ['+CMGS: 255', 255],
    ['+CMGS: 12,"26/01/01,10:00:00+00"', 12],
  ])('reads the message reference from %s', (line, mr) => {
    expect(parseCmgs([line])).toBe(mr);
  });
});

describe('parseCsca', () => {
  it('reads an international service centre', () => {
    expect(parseCsca(['+CSCA: "+447785016005",145'])).toEqual({ address: '+447785016005', type: 145 });
  });
});

describe('parseCnum', () => {
  it('reads own numbers with and without alpha, and skips empty ones', () => {
    expect(
      parseCnum(['+CNUM: "Voice","+447700900123",145', '+CNUM: ,"07700900999",129', '+CNUM: ,"",129']),
    ).toEqual([
      { alpha: 'Voice', number: '+447700900123', type: 145 },
      { number: '07700900999', type: 129 },
    ]);
  });
});

describe('parseIdentity', () => {
  it.each([
    [['Quectel'], '+CGMI', 'Quectel'],
    [['+CGMI: "Sierra Wireless"'], '+CGMI', 'Sierra Wireless'],
    [['+CGSN: 867962040123456'], '+CGSN', '867962040123456'],
    [['', 'E3372'], '+CGMM', 'E3372'],
  ])('reads %j with prefix %s', (lines, prefix, expected) => {
    expect(parseIdentity(lines, prefix)).toBe(expected);
  });

  it('gives undefined for an empty reply', () => {
    expect(parseIdentity([], '+CGMR')).toBeUndefined();
  });
});

describe('parseIccid', () => {
  it.each([
    ['+CCID: 89441000301234567890', '89441000301234567890'],
    ['^ICCID: 8944100030123456789F', '8944100030123456789'],
    ['+QCCID: 89860318760235012345', '89860318760235012345'],
    ['+ICCID: "8931440400012345678"', '8931440400012345678'],
    ['89441000301234567890', '89441000301234567890'],
  ])('reads %s', (line, expected) => {
    expect(parseIccid([line])).toBe(expected);
  });

  it('gives undefined when no ICCID is present', () => {
    expect(parseIccid(['+CME ERROR: 10'])).toBeUndefined();
  });
});

describe('parseCpmsOptions', () => {
  it('reads the standard three lists', () => {
    expect(parseCpmsOptions(['+CPMS: ("SM","ME","SR"),("SM","ME"),("SM")'])).toEqual({
      mem1: ['SM', 'ME', 'SR'],
      mem2: ['SM', 'ME'],
      mem3: ['SM'],
    });
  });
});
