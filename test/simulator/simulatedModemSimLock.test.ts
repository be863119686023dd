import { afterEach, describe, expect, it } from 'vitest';
import { lines } from './atTerminal.js';
import { type SimulatorHarness, startSimulator } from './simulatorHarness.js';

describe('SimulatedModem with a PIN-locked SIM', () => {
  let sim: SimulatorHarness;
  afterEach(async () => {
    await sim.stop();
  });

  async function startLocked(): Promise<SimulatorHarness> {
    sim = await startSimulator({ echo: false, simPin: '4321' });
    await sim.terminal.exchange('AT+CMEE=1');
    return sim;
  }

  it('starts asking for the PIN and refuses SMS commands with +CME ERROR 11', async () => {
    const { terminal } = await startLocked();
    expect(await terminal.exchange('AT+CPIN?')).toEqual(['+CPIN: SIM PIN', 'OK']);
    expect(await terminal.exchange('AT+CMGS=20')).toEqual(['+CME ERROR: 11']);
    expect(await terminal.exchange('AT+CMGL=4')).toEqual(['+CME ERROR: 11']);
    expect(await terminal.exchange('AT+CPMS?')).toEqual(['+CME ERROR: 11']);
    expect(await terminal.exchange('AT+CIMI')).toEqual(['+CME ERROR: 11']);
  });

  it('is not registered while the SIM is locked', async () => {
    const { terminal } = await startLocked();
    expect(await terminal.exchange('AT+CREG?')).toEqual(['+CREG: 0,0', 'OK']);
    expect(await terminal.exchange('AT+COPS?')).toEqual(['+COPS: 0', 'OK']);
  });

  it('unlocks with the right PIN and announces the registration when AT+CREG=1 asked for it', async () => {
    const { terminal } = await startLocked();
    await terminal.exchange('AT+CREG=1');
    await terminal.write('AT+CPIN="4321"\r');
    expect(lines(await terminal.waitFor((text) => text.includes('+CREG: 1')))).toEqual(['OK', '+CREG: 1']);
    expect(await terminal.exchange('AT+CPIN?')).toEqual(['+CPIN: READY', 'OK']);
    expect(await terminal.exchange('AT+CPMS?')).toEqual(['+CPMS: "SM",0,30,"SM",0,30,"SM",0,30', 'OK']);
  });

  it('answers a wrong PIN with +CME ERROR 16 and stays locked', async () => {
    const { terminal } = await startLocked();
    expect(await terminal.exchange('AT+CPIN="0000"')).toEqual(['+CME ERROR: 16']);
    expect(await terminal.exchange('AT+CPIN?')).toEqual(['+CPIN: SIM PIN', 'OK']);
    expect(await terminal.exchange('AT+CPIN=4321')).toEqual(['OK']);
  });

  it('blocks the SIM after three wrong PINs, so even the right one is refused', async () => {
    const { terminal } = await startLocked();
    for (const attempt of ['0000', '1111', '2222']) {
      expect(await terminal.exchange(`AT+CPIN="${attempt}"`)).toEqual(['+CME ERROR: 16']);
    }
    expect(await terminal.exchange('AT+CPIN?')).toEqual(['+CPIN: SIM PUK', 'OK']);
    expect(await terminal.exchange('AT+CPIN="4321"')).toEqual(['+CME ERROR: 12']);
    expect(await terminal.exchange('AT+CMGL=4')).toEqual(['+CME ERROR: 12']);
  });

  it('asks for the PIN again after a restart with AT+CFUN=1,1', async () => {
    const { terminal } = await startLocked();
    await terminal.exchange('AT+CPIN="4321"');
    expect(await terminal.exchange('AT+CFUN=1,1')).toEqual(['OK']);
    expect(await terminal.exchange('AT+CPIN?')).toEqual(['+CPIN: SIM PIN', 'OK']);
  });
});
