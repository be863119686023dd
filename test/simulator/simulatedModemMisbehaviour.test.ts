import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedModem, type SimulatedModemOptions } from '../../server/devices/simulator/simulatedModem.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { lines } from './atTerminal.js';
import { type SimulatorHarness, startSimulator } from './simulatorHarness.js';

describe('SimulatedModem misbehaving on purpose', () => {
  let sim: SimulatorHarness;
  afterEach(async () => {
    await sim.stop();
  });

  it('answers nothing while silent but still records what it was sent', async () => {
    sim = await startSimulator();
    sim.modem.setSilent(true);
    await sim.terminal.write('AT\r');
    await sim.terminal.write('AT+CSQ\r');
    sim.modem.emitUnsolicited('RING');
    expect(await sim.terminal.drain()).toBe('');
    expect(sim.modem.commands).toEqual(['AT', 'AT+CSQ']);
    sim.modem.setSilent(false);
    expect(await sim.terminal.exchange('AT')).toEqual(['AT', 'OK']);
  });

  it('answers with junk lines and no result code while garbage is on', async () => {
    sim = await startSimulator({ echo: false });
    sim.modem.setGarbage(true);
    await sim.terminal.write('AT\r');
    await sim.terminal.write('AT+CSQ\r');
    const junk = lines(await sim.terminal.waitFor((text) => text.endsWith('\r\n') && text.length > 20));
    expect(junk.length).toBeGreaterThan(0);
    for (const line of junk) expect(line).toMatch(/^[\x80-\xff]+$/);
    expect(await sim.terminal.drain()).not.toMatch(/OK|ERROR/);
    sim.modem.setGarbage(false);
    await sim.terminal.drain();
    expect(await sim.terminal.exchange('AT')).toEqual(['OK']);
  });

  it('sends unsolicited noise between replies, even while waiting for a PDU', async () => {
    sim = await startSimulator({ echo: false });
    sim.modem.emitUnsolicited('^RSSI: 12');
    expect(lines(await sim.terminal.waitFor((text) => text.endsWith('\r\n')))).toEqual(['^RSSI: 12']);
    await sim.terminal.write('AT+CMGS=20\r');
    await sim.terminal.waitFor((text) => text.endsWith('> '));
    sim.modem.emitUnsolicited('+ZDONR: "METEOR",272,3,"CS_ONLY","ROAM_OFF"');
    expect(lines(await sim.terminal.waitFor((text) => text.endsWith('\r\n')))).toEqual([
      '+ZDONR: "METEOR",272,3,"CS_ONLY","ROAM_OFF"',
    ]);
    await sim.terminal.write('\x1b');
    expect(lines(await sim.terminal.waitFor((text) => text.includes('OK')))).toEqual(['OK']);
  });

  it('announces registration changes with +CREG and +CGREG once enabled', async () => {
    sim = await startSimulator({ echo: false });
    sim.modem.setRegistration(2);
    expect(await sim.terminal.drain()).toBe('');
    await sim.terminal.exchange('AT+CREG=1;+CGREG=2');
    sim.modem.setRegistration(5);
    expect(lines(await sim.terminal.waitFor((text) => text.includes('+CGREG')))).toEqual([
      '+CREG: 5',
      '+CGREG: 5,"00A1","0001B2C3"',
    ]);
    sim.modem.setRegistration(5);
    expect(await sim.terminal.drain()).toBe('');
  });

  it('shows the location with AT+CREG=2 in the read form', async () => {
    sim = await startSimulator({ echo: false });
    await sim.terminal.exchange('AT+CREG=2');
    expect(await sim.terminal.exchange('AT+CREG?')).toEqual(['+CREG: 2,1,"00A1","0001B2C3"', 'OK']);
    sim.modem.setRegistration(3);
    await sim.terminal.waitForLine('+CREG: 3');
    expect(await sim.terminal.exchange('AT+CREG?')).toEqual(['+CREG: 2,3', 'OK']);
  });

  it('reports the signal set by setSignal', async () => {
    sim = await startSimulator({ echo: false });
    sim.modem.setSignal(7);
    expect(await sim.terminal.exchange('AT+CSQ')).toEqual(['+CSQ: 7,99', 'OK']);
    sim.modem.setSignal(99);
    expect(await sim.terminal.exchange('AT+CSQ')).toEqual(['+CSQ: 99,99', 'OK']);
  });

  it('refuses impossible steering values with ValidationFailed', async () => {
    sim = await startSimulator({ echo: false });
    const validation = expect.objectContaining({ code: ErrorCode.ValidationFailed });
    expect(() => sim.modem.setSignal(40)).toThrow(validation);
    expect(() => sim.modem.setRegistration(6)).toThrow(validation);
    expect(() => sim.modem.setStatusReportOutcome(256)).toThrow(validation);
    expect(() => sim.modem.failSends(500, 0)).toThrow(validation);
  });

  it('drops a delayed reply when it is stopped and answers afresh once started again', async () => {
    sim = await startSimulator({ echo: false, replyDelayMs: 100 });
    await sim.terminal.write('AT+CSQ\r');
    await sim.terminal.drain();
    await sim.modem.stop();
    expect(sim.clock.pendingTimers).toBe(0);
    await sim.modem.start();
    await sim.terminal.write('AT\r');
    await sim.terminal.drain();
    await sim.clock.advance(100);
    expect(lines(await sim.terminal.waitFor((text) => text.includes('OK')))).toEqual(['OK']);
  });

  it('refuses options a modem cannot have with ConfigInvalid', async () => {
    sim = await startSimulator({ echo: false });
    const build = (options: Partial<SimulatedModemOptions>) => () =>
      new SimulatedModem(sim.link.device, { clock: sim.clock, logger: silentLogger, ...options });
    const invalid = expect.objectContaining({ code: ErrorCode.ConfigInvalid });
    expect(build({ storageSize: 0 })).toThrow(invalid);
    expect(build({ replyDelayMs: -1 })).toThrow(invalid);
    expect(build({ simPin: '12' })).toThrow(invalid);
    expect(build({ historyLimit: 1.5 })).toThrow(invalid);
  });

  it('stops answering once the cable is pulled', async () => {
    sim = await startSimulator({ echo: false });
    sim.link.unplug();
    expect(sim.link.device.isOpen).toBe(false);
    sim.modem.emitUnsolicited('RING');
    await expect(sim.terminal.write('AT\r')).rejects.toMatchObject({ code: ErrorCode.TransportClosed });
  });
});
