import { afterEach, describe, expect, it } from 'vitest';
import { lines } from './atTerminal.js';
import { type SimulatorHarness, startSimulator } from './simulatorHarness.js';

describe('SimulatedModem answering AT commands', () => {
  let sim: SimulatorHarness;
  afterEach(async () => {
    await sim.stop();
  });

  it('answers a typical initialisation sequence with realistic replies', async () => {
    sim = await startSimulator({ echo: false, identity: { model: 'E173', imei: '356938035643809' } });
    const { terminal } = sim;
    expect(await terminal.exchange('AT')).toEqual(['OK']);
    expect(await terminal.exchange('AT+CMEE=1')).toEqual(['OK']);
    expect(await terminal.exchange('AT+CGMI')).toEqual(['Desktop SMS Gateway', 'OK']);
    expect(await terminal.exchange('AT+CGMM')).toEqual(['E173', 'OK']);
    expect(await terminal.exchange('AT+CGMR')).toEqual(['SIM-1.0.0', 'OK']);
    expect(await terminal.exchange('AT+CGSN')).toEqual(['356938035643809', 'OK']);
    expect(await terminal.exchange('AT+CIMI')).toEqual(['001010123456789', 'OK']);
    expect(await terminal.exchange('AT+CCID')).toEqual(['+CCID: 8900101234567890123', 'OK']);
    expect(await terminal.exchange('AT^ICCID?')).toEqual(['^ICCID: 8900101234567890123', 'OK']);
    expect(await terminal.exchange('AT+CNUM')).toEqual(['+CNUM: "","+447700900001",145', 'OK']);
    expect(await terminal.exchange('AT+CPIN?')).toEqual(['+CPIN: READY', 'OK']);
    expect(await terminal.exchange('AT+CSQ')).toEqual(['+CSQ: 20,99', 'OK']);
    expect(await terminal.exchange('AT+CREG?')).toEqual(['+CREG: 0,1', 'OK']);
    expect(await terminal.exchange('AT+CGREG?')).toEqual(['+CGREG: 0,1', 'OK']);
    expect(await terminal.exchange('AT+COPS?')).toEqual(['+COPS: 0,0,"Test Network",2', 'OK']);
    expect(await terminal.exchange('AT+CMGF=0')).toEqual(['OK']);
    expect(await terminal.exchange('AT+CMGF?')).toEqual(['+CMGF: 0', 'OK']);
    expect(await terminal.exchange('AT+CSCA?')).toEqual(['+CSCA: "+447700900000",145', 'OK']);
    expect(await terminal.exchange('AT+CPMS="SM","SM","SM"')).toEqual(['+CPMS: 0,30,0,30,0,30', 'OK']);
    expect(await terminal.exchange('AT+CPMS?')).toEqual(['+CPMS: "SM",0,30,"SM",0,30,"SM",0,30', 'OK']);
    expect(await terminal.exchange('AT+CNMI=2,1,0,2,0')).toEqual(['OK']);
    expect(await terminal.exchange('AT+CNMI?')).toEqual(['+CNMI: 2,1,0,2,0', 'OK']);
    expect(await terminal.exchange('AT+CSMS?')).toEqual(['+CSMS: 0,1,1,1', 'OK']);
    expect(await terminal.exchange('AT+CFUN?')).toEqual(['+CFUN: 1', 'OK']);
    expect(sim.modem.commands).toContain('AT+CNMI=2,1,0,2,0');
  });

  it('answers the test forms with the supported ranges', async () => {
    sim = await startSimulator({ echo: false });
    const { terminal } = sim;
    expect(await terminal.exchange('AT+CPMS=?')).toEqual(['+CPMS: ("SM"),("SM"),("SM")', 'OK']);
    expect(await terminal.exchange('AT+CNMI=?')).toEqual(['+CNMI: (0-3),(0-3),(0),(0-2),(0-1)', 'OK']);
    expect(await terminal.exchange('AT+CMGF=?')).toEqual(['+CMGF: (0-1)', 'OK']);
    expect(await terminal.exchange('AT+COPS=?')).toEqual([
      '+COPS: (2,"Test Network","Test Network","00101",2),,(0-4),(0-2)',
      'OK',
    ]);
    expect(await terminal.exchange('AT+CMGD=?')).toEqual(['+CMGD: (),(0-4)', 'OK']);
  });

  it('echoes each command line while ATE1 is in force and stops after ATE0', async () => {
    sim = await startSimulator();
    expect(await sim.terminal.exchange('AT+CSQ')).toEqual(['AT+CSQ', '+CSQ: 20,99', 'OK']);
    expect(await sim.terminal.exchange('ATE0')).toEqual(['ATE0', 'OK']);
    expect(await sim.terminal.exchange('AT+CSQ')).toEqual(['+CSQ: 20,99', 'OK']);
  });

  it('frames replies as CR LF <line> CR LF, the echo ending in a bare CR', async () => {
    sim = await startSimulator();
    await sim.terminal.write('AT+CGMI\r');
    const raw = await sim.terminal.waitFor((text) => text.endsWith('OK\r\n'));
    expect(raw).toBe('AT+CGMI\r\r\nDesktop SMS Gateway\r\n\r\nOK\r\n');
  });

  it('reads commands ended by CR, LF or CR LF and split across chunks anywhere', async () => {
    sim = await startSimulator({ echo: false });
    await sim.terminal.write('AT+CG');
    await sim.terminal.write('MI\r\nAT+CSQ\n');
    await sim.terminal.write('AT\r');
    const received = lines(await sim.terminal.waitFor((text) => text.split('OK').length === 4));
    expect(received).toEqual(['Desktop SMS Gateway', 'OK', '+CSQ: 20,99', 'OK', 'OK']);
    expect(sim.modem.commands).toEqual(['AT+CGMI', 'AT+CSQ', 'AT']);
  });

  it('runs several commands of one line and answers with one final result', async () => {
    sim = await startSimulator({ echo: false });
    expect(await sim.terminal.exchange('ATE0+CMEE=1;+CMGF?;+CSQ')).toEqual(['+CMGF: 0', '+CSQ: 20,99', 'OK']);
    expect(await sim.terminal.exchange('AT+CMEE?')).toEqual(['+CMEE: 1', 'OK']);
  });

  it('answers ERROR to unknown commands and to forms a command does not have', async () => {
    sim = await startSimulator({ echo: false });
    expect(await sim.terminal.exchange('AT+WIND?')).toEqual(['ERROR']);
    expect(await sim.terminal.exchange('AT+CSQ?')).toEqual(['ERROR']);
    expect(await sim.terminal.exchange('AT+CMEE=1')).toEqual(['OK']);
    expect(await sim.terminal.exchange('AT+FOO=1')).toEqual(['ERROR']);
  });

  it('ignores a line that does not start with AT, as V.250 modems do', async () => {
    sim = await startSimulator({ echo: false });
    await sim.terminal.write('hello\r');
    expect(await sim.terminal.exchange('AT')).toEqual(['OK']);
    expect(sim.modem.commands).toEqual(['hello', 'AT']);
  });

  it('answers a command line preceded by an ESC sent in command mode, ignoring what comes before AT', async () => {
    sim = await startSimulator({ echo: false });
    await sim.terminal.write('\x1b');
    expect(await sim.terminal.exchange('AT+CSQ')).toEqual(['+CSQ: 20,99', 'OK']);
    expect(sim.modem.commands).toEqual(['AT+CSQ']);
  });

  it('reports failures as ERROR, numeric or verbose according to AT+CMEE', async () => {
    sim = await startSimulator({ echo: false });
    const { terminal } = sim;
    expect(await terminal.exchange('AT+CMGR=99')).toEqual(['ERROR']);
    await terminal.exchange('AT+CMEE=1');
    expect(await terminal.exchange('AT+CMGR=99')).toEqual(['+CMS ERROR: 321']);
    expect(await terminal.exchange('AT+CPIN="1234"')).toEqual(['+CME ERROR: 3']);
    await terminal.exchange('AT+CMEE=2');
    expect(await terminal.exchange('AT+CMGR=99')).toEqual(['+CMS ERROR: invalid memory index']);
    expect(await terminal.exchange('AT+CPIN="1234"')).toEqual(['+CME ERROR: operation not allowed']);
    await terminal.exchange('AT+CMEE=0');
    expect(await terminal.exchange('AT+CMGR=99')).toEqual(['ERROR']);
  });

  it('answers ERROR to the numeric send and list forms in text mode', async () => {
    sim = await startSimulator({ echo: false });
    expect(await sim.terminal.exchange('AT+CMGF=1')).toEqual(['OK']);
    expect(await sim.terminal.exchange('AT+CMGF?')).toEqual(['+CMGF: 1', 'OK']);
    expect(await sim.terminal.exchange('AT+CMEE=1')).toEqual(['OK']);
    expect(await sim.terminal.exchange('AT+CMGS=20')).toEqual(['ERROR']);
    expect(await sim.terminal.exchange('AT+CMGL=4')).toEqual(['ERROR']);
  });

  it('restores the stored profile on ATZ and the factory one, echo on, on AT&F', async () => {
    sim = await startSimulator({ echo: false });
    const { terminal } = sim;
    await terminal.exchange('AT+CMEE=2;+CMGF=1;+CNMI=1,2,0,1,0;+CREG=2');
    expect(await terminal.exchange('ATZ')).toEqual(['OK']);
    expect(await terminal.exchange('AT+CMEE?;+CMGF?;+CNMI?;+CREG?')).toEqual([
      '+CMEE: 0',
      '+CMGF: 0',
      '+CNMI: 2,1,0,2,0',
      '+CREG: 0,1',
      'OK',
    ]);
    expect(await terminal.exchange('AT&F')).toEqual(['OK']);
    expect(await terminal.exchange('AT')).toEqual(['AT', 'OK']);
  });

  it('describes itself on ATI and lists its commands on AT+CLAC', async () => {
    sim = await startSimulator({ echo: false });
    expect(await sim.terminal.exchange('ATI')).toEqual([
      'Manufacturer: Desktop SMS Gateway',
      'Model: Simulated Modem',
      'Revision: SIM-1.0.0',
      'IMEI: 490154203237518',
      'OK',
    ]);
    const listing = await sim.terminal.exchange('AT+CLAC');
    expect(listing).toEqual(
      expect.arrayContaining(['AT+CMGS', 'AT+CMGL', 'AT+CPIN', 'AT^ICCID', 'ATE', 'OK']),
    );
  });

  it('turns the radio off with AT+CFUN=4, which drops the registration', async () => {
    sim = await startSimulator({ echo: false });
    expect(await sim.terminal.exchange('AT+CFUN=4')).toEqual(['OK']);
    expect(await sim.terminal.exchange('AT+CFUN?;+CREG?;+CSQ;+COPS?')).toEqual([
      '+CFUN: 4',
      '+CREG: 0,0',
      '+CSQ: 99,99',
      '+COPS: 0',
      'OK',
    ]);
    expect(await sim.terminal.exchange('AT+CFUN=1')).toEqual(['OK']);
    expect(await sim.terminal.exchange('AT+CREG?')).toEqual(['+CREG: 0,1', 'OK']);
  });

  it('waits replyDelayMs on its clock before each reply', async () => {
    sim = await startSimulator({ echo: false, replyDelayMs: 300 });
    await sim.terminal.write('AT\r');
    await sim.clock.advance(299);
    expect(await sim.terminal.drain()).toBe('');
    await sim.clock.advance(1);
    expect(lines(await sim.terminal.waitFor((text) => text.includes('OK')))).toEqual(['OK']);
  });
});
