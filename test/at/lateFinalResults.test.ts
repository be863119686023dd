import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { AtSession, type UnsolicitedCode } from '../../server/devices/at/atSession.js';
import { createMemoryLink } from '../../server/devices/transport/memoryTransport.js';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { createLogger, type LogRecord } from '../../server/logging/logger.js';
import { ScriptedModem } from '../support/scriptedModem.js';

/**
 * Security review 11 / RELIABILITY.md finding 3: a command times out, and its final result comes
 * after all, later than any quiet window (a flooded modem, a loaded host). The scripted modem
 * works like a real one: busy with the slow command it reads nothing, then answers it and
 * works through what it was sent meanwhile, in order, echoing once told `ATE1`.
 */
const pdu = '0011000B916407281553F80000AA0AE8329BFD4697D9EC37';

async function lineWithSlowModem() {
  const clock = new ManualClock();
  const link = createMemoryLink('slow-modem');
  const modem = new ScriptedModem(link.device, {
    replies: [
      // The noise made the gateway select a memory that does not exist; the modem takes long.
      [
        'AT+CPMS="XX"',
        () => {
          modem.stall();
          return [];
        },
      ],
      ['AT+CSQ', ['+CSQ: 20,99', 'OK']],
    ],
    onPdu: () => ['+CMGS: 7', 'OK'],
  });
  await modem.start();
  const records: LogRecord[] = [];
  const logger = createLogger({ level: 'DEBUG', sinks: [(record) => records.push(record)] });
  const session = new AtSession(link.host, { clock, logger, defaultTimeoutMs: 1_000 });
  const urcs: UnsolicitedCode[] = [];
  session.onUnsolicited((code) => urcs.push(code));
  await session.open();
  /** Moves time in 100 ms steps until `promise` settles or `limitMs` has passed. */
  const run = async <T>(promise: Promise<T>, limitMs = 60_000): Promise<T> => {
    let settled = false;
    const tracked = promise.finally(() => {
      settled = true;
    });
    tracked.catch(() => undefined);
    for (let elapsed = 0; elapsed < limitMs && !settled; elapsed += 100) await clock.advance(100);
    return tracked;
  };
  return { clock, modem, session, urcs, records, run };
}

async function outcome(promise: Promise<unknown>): Promise<unknown> {
  try {
    return await promise;
  } catch (error) {
    return isGatewayError(error) ? { code: error.code, modemCode: error.modemCode } : error;
  }
}

describe('a final result that comes after its command timed out (review 11)', () => {
  for (const lateByMs of [1_500, 3_000, 10_000]) {
    it(`gives a send its own answer when a timed-out AT+CPMS is refused ${lateByMs} ms late, among URCs`, async () => {
      const line = await lineWithSlowModem();
      // As the driver does on every line it opens: after this the modem is known to echo.
      await line.run(line.session.cancelPendingInput(200));
      const storage = outcome(line.session.execute('AT+CPMS="XX"'));
      await line.clock.advance(1_000);
      expect(await storage).toMatchObject({ code: ErrorCode.AtTimeout });

      const send = outcome(
        line.session.sendPdu('AT+CMGS=18', pdu, { promptTimeoutMs: 30_000, resultTimeoutMs: 60_000 }),
      );
      for (let elapsed = 0; elapsed < lateByMs; elapsed += 500) {
        line.modem.inject(elapsed % 1_000 === 0 ? '+CMTI: "SM",3' : '+CREG: 1');
        await line.clock.advance(500);
      }
      line.modem.answerLate(['+CMS ERROR: 303']);
      line.modem.inject('+CMTI: "SM",4');

      expect(await line.run(send)).toEqual({ lines: ['+CMGS: 7'] });
      expect(line.modem.pdus).toEqual([pdu]);
      expect(line.urcs.map((code) => code.name)).toContain('+CREG');
      expect(line.urcs.filter((code) => code.name === '+CMTI').map((code) => code.args)).toContain('"SM",4');
    });
  }

  it('gives the next plain command its own answer when the late answer is an OK', async () => {
    const line = await lineWithSlowModem();
    await line.run(line.session.cancelPendingInput(200));
    line.modem.script('AT+COPS=?', () => {
      line.modem.stall();
      return [];
    });
    const search = outcome(line.session.execute('AT+COPS=?'));
    await line.clock.advance(1_000);
    expect(await search).toMatchObject({ code: ErrorCode.AtTimeout });
    const signal = line.session.execute('AT+CSQ', { timeoutMs: 30_000 });
    await line.clock.advance(3_000);
    line.modem.answerLate(['+COPS: (2,"Vodafone","VF","23415",7)', 'OK']);
    expect(await line.run(signal)).toEqual({ lines: ['+CSQ: 20,99'] });
  });

  it('probes with a command line never sent before, so an earlier probe answered late cannot pass for it', async () => {
    const line = await lineWithSlowModem();
    await line.run(line.session.cancelPendingInput(200));
    const storage = outcome(line.session.execute('AT+CPMS="XX"'));
    await line.clock.advance(1_000);
    await storage;
    const signal = line.session.execute('AT+CSQ', { timeoutMs: 30_000 });
    // Several probes time out while the modem is stuck; each one is new.
    await line.clock.advance(7_000);
    line.modem.answerLate(['+CMS ERROR: 303']);
    expect(await line.run(signal)).toEqual({ lines: ['+CSQ: 20,99'] });
    const probes = line.modem.commands.filter((command) => /^ATS\d+\?$/.test(command));
    expect(probes.length).toBeGreaterThan(1);
    expect(new Set(probes).size).toBe(probes.length);
  });

  it('times out a command held behind a modem that never answers again, and keeps holding the next', async () => {
    const line = await lineWithSlowModem();
    await line.run(line.session.cancelPendingInput(200));
    const storage = outcome(line.session.execute('AT+CPMS="XX"'));
    await line.clock.advance(1_000);
    await storage;
    const first = outcome(line.session.execute('AT+CSQ', { timeoutMs: 5_000 }));
    const second = line.session.execute('AT+CSQ', { timeoutMs: 30_000 });
    // One resync step (2 s) and the command's own 5 s.
    let firstSettled = false;
    void first.then(() => {
      firstSettled = true;
    });
    await line.clock.advance(6_900);
    expect(firstSettled).toBe(false);
    await line.clock.advance(100);
    expect(await first).toMatchObject({ code: ErrorCode.AtTimeout });
    expect(line.modem.count('AT+CSQ')).toBe(0);
    line.modem.answerLate(['+CMS ERROR: 303']);
    expect(await line.run(second)).toEqual({ lines: ['+CSQ: 20,99'] });
  });

  it('falls back to a quiet wait on a line that has never answered a probe', async () => {
    const line = await lineWithSlowModem();
    line.modem.canEcho = false;
    const discarded = await line.run(line.session.cancelPendingInput(200));
    expect(discarded).toBeGreaterThan(0);
    expect(line.records.map((record) => record.message)).toContain(
      'the modem did not answer the resynchronising probe; waiting for a quiet line instead',
    );
    expect(await line.run(line.session.execute('AT+CSQ'))).toEqual({ lines: ['+CSQ: 20,99'] });
  });

  it('drops a final result that comes with no command in flight, with one warning', async () => {
    const line = await lineWithSlowModem();
    line.modem.inject('+CMS ERROR: 321');
    line.modem.inject('OK');
    await line.clock.advance(0);
    expect(await line.run(line.session.execute('AT+CSQ'))).toEqual({ lines: ['+CSQ: 20,99'] });
    const warnings = line.records.filter((record) => record.priority === 'WARN');
    expect(warnings.map((record) => record.message)).toEqual([
      'dropped a final result that came with no command in flight',
    ]);
  });
});
