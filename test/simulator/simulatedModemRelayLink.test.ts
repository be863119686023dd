/**
 * The simulator's relay link and `+CMMS` against 3GPP TS 27.005 §3.5.6 (see
 * `server/devices/simulator/relayLink.ts` for the text each case checks).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encodeSubmit } from '../../server/contract/pdu/index.js';
import type { RelayLinkOptions } from '../../server/devices/simulator/relayLink.js';
import { lines } from './atTerminal.js';
import { type SimulatorHarness, startSimulator } from './simulatorHarness.js';

const SETUP_MS = 2000;
const SEND_MS = 500;
const HOLD_MS = 3000;

const [part] = encodeSubmit({
  recipient: '+447700900123',
  content: { kind: 'text', text: 'relay link' },
  requestStatusReport: false,
  concatReference: 0,
});
if (!part) throw new Error('the codec produced no part');

describe('SimulatedModem relay link and +CMMS (TS 27.005 §3.5.6)', () => {
  let sim: SimulatorHarness;
  afterEach(async () => {
    await sim.stop();
  });

  async function start(relayLink: RelayLinkOptions = {}): Promise<SimulatorHarness> {
    sim = await startSimulator({
      echo: false,
      sendDelayMs: SEND_MS,
      relayLink: { setupMs: SETUP_MS, holdMs: HOLD_MS, ...relayLink },
    });
    await sim.terminal.exchange('AT+CMEE=1');
    return sim;
  }

  /** One AT+CMGS on the modem's clock: how long its answer took. */
  async function timedSend(): Promise<number> {
    const { terminal, clock } = sim;
    const startedAt = clock.now();
    await terminal.write(`AT+CMGS=${part?.tpduLength}\r`);
    await terminal.waitFor((text) => text.endsWith('> '));
    terminal.take();
    await terminal.write(`${part?.hex}\x1a`);
    while (!/\r\nOK\r\n/.test(terminal.pending)) {
      if (!(await clock.advanceToNext())) await terminal.waitFor((text) => /\r\nOK\r\n/.test(text));
    }
    expect(lines(terminal.take())).toEqual([expect.stringMatching(/^\+CMGS: \d+$/), 'OK']);
    return clock.now() - startedAt;
  }

  it('lists, reads and sets <n>; an omitted <n> is 0 and a value not listed is refused', async () => {
    const { terminal } = await start();
    expect(await terminal.exchange('AT+CMMS=?')).toEqual(['+CMMS: (0-2)', 'OK']);
    expect(await terminal.exchange('AT+CMMS?')).toEqual(['+CMMS: 0', 'OK']);
    expect(await terminal.exchange('AT+CMMS=2')).toEqual(['OK']);
    expect(await terminal.exchange('AT+CMMS?')).toEqual(['+CMMS: 2', 'OK']);
    expect(await terminal.exchange('AT+CMMS=')).toEqual(['OK']);
    expect(await terminal.exchange('AT+CMMS?')).toEqual(['+CMMS: 0', 'OK']);
    expect(await terminal.exchange('AT+CMMS=3')).toEqual(['+CMS ERROR: 303']);
  });

  it('lists only the modes it offers, and refuses the others', async () => {
    const { terminal } = await start({ modes: [0, 1] });
    expect(await terminal.exchange('AT+CMMS=?')).toEqual(['+CMMS: (0-1)', 'OK']);
    expect(await terminal.exchange('AT+CMMS=2')).toEqual(['+CMS ERROR: 303']);
  });

  it('answers ERROR to every +CMMS form when it has none', async () => {
    const { terminal } = await start({ modes: [] });
    expect(await terminal.exchange('AT+CMMS=?')).toEqual(['ERROR']);
    expect(await terminal.exchange('AT+CMMS=1')).toEqual(['ERROR']);
  });

  it('with <n> 0 opens the link for every send', async () => {
    await start();
    expect(await timedSend()).toBe(SETUP_MS + SEND_MS);
    expect(await timedSend()).toBe(SETUP_MS + SEND_MS);
    expect(sim.modem.relayLinkOpen).toBe(false);
    expect(sim.modem.relayLinkCounts).toEqual({ setups: 2, keptOpen: 0 });
  });

  it('with <n> 2 keeps the link within the hold, closes it after, and stays 2', async () => {
    const { terminal, clock } = await start();
    await terminal.exchange('AT+CMMS=2');
    expect(await timedSend()).toBe(SETUP_MS + SEND_MS);
    expect(await timedSend()).toBe(SEND_MS);
    await clock.advance(HOLD_MS);
    expect(sim.modem.relayLinkOpen).toBe(true);
    expect(await timedSend()).toBe(SEND_MS);
    await clock.advance(HOLD_MS + 1);
    expect(sim.modem.relayLinkOpen).toBe(false);
    expect(await terminal.exchange('AT+CMMS?')).toEqual(['+CMMS: 2', 'OK']);
    expect(await timedSend()).toBe(SETUP_MS + SEND_MS);
    expect(sim.modem.relayLinkCounts).toEqual({ setups: 2, keptOpen: 2 });
  });

  it('with <n> 1 keeps the link within the hold, and falls back to 0 once it closed while idle', async () => {
    const { terminal, clock } = await start();
    await terminal.exchange('AT+CMMS=1');
    // Set, but no send yet: nothing to time out, <n> stays 1.
    await clock.advance(HOLD_MS * 2);
    expect(await terminal.exchange('AT+CMMS?')).toEqual(['+CMMS: 1', 'OK']);
    expect(await timedSend()).toBe(SETUP_MS + SEND_MS);
    expect(await timedSend()).toBe(SEND_MS);
    await clock.advance(HOLD_MS + 1);
    expect(await terminal.exchange('AT+CMMS?')).toEqual(['+CMMS: 0', 'OK']);
    expect(await timedSend()).toBe(SETUP_MS + SEND_MS);
    expect(await timedSend()).toBe(SETUP_MS + SEND_MS);
    expect(sim.modem.relayLinkCounts).toEqual({ setups: 3, keptOpen: 1 });
  });

  it('releases an open link when <n> is set to 0, and forgets <n> on a restart', async () => {
    const { terminal } = await start();
    await terminal.exchange('AT+CMMS=2');
    await timedSend();
    expect(sim.modem.relayLinkOpen).toBe(true);
    await terminal.exchange('AT+CMMS=0');
    expect(sim.modem.relayLinkOpen).toBe(false);
    await terminal.exchange('AT+CMMS=2');
    await terminal.exchange('AT+CFUN=1,1');
    expect(await terminal.exchange('AT+CMMS?')).toEqual(['+CMMS: 0', 'OK']);
  });
});
