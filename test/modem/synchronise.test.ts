import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { AtSession } from '../../server/devices/at/atSession.js';
import { synchronise } from '../../server/devices/modem/modemSetup.js';
import { createMemoryLink } from '../../server/devices/transport/memoryTransport.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { ScriptedModem } from '../support/scriptedModem.js';

const timing = { attempts: 5, timeoutMs: 2_000, quietMs: 200 };
const probe = /^ATS\d+\?$/;

/**
 * A line another process left mid-conversation, on a scripted modem that echoes once told ATE1
 * (V.250 §6.2.4) and answers its input in order; `stall`/`answerLate` make it owe a dead
 * process an answer that comes late.
 */
async function takeOver() {
  const clock = new ManualClock();
  const link = createMemoryLink('left-over-line');
  const modem = new ScriptedModem(link.device, {
    replies: [
      ['AT', ['OK']],
      ['AT+CGMI', ['Acme', 'OK']],
    ],
  });
  await modem.start();
  const session = new AtSession(link.host, { clock, logger: silentLogger });
  await session.open();
  /** Runs `promise` while time passes in 50 ms steps (timeouts and resync steps need it). */
  const settle = async <T>(promise: Promise<T>): Promise<T> => {
    let done = false;
    const tracked = promise.finally(() => {
      done = true;
    });
    tracked.catch(() => undefined);
    for (let step = 0; step < 4_000 && !done; step++) await clock.advance(50);
    return tracked;
  };
  return { clock, modem, session, settle, context: { session, clock, commandTimeoutMs: 2_000 } };
}

describe('taking over a modem line (synchronise)', () => {
  it('writes ESC, resynchronises by sequence, and then the first AT gets its own answer', async () => {
    const line = await takeOver();
    await line.settle(synchronise(line.context, timing));
    expect(line.modem.commands.map((command) => (probe.test(command) ? 'ATS<n>?' : command))).toEqual([
      'ATE1',
      'ATS<n>?',
      'ATE0',
      'AT',
    ]);
    expect(line.modem.echo).toBe(false);
  });

  it('discards answers owed to a dead process, however late, so later commands get their own (a line one answer behind)', async () => {
    const line = await takeOver();
    // The modem is still busy with the dead process's send: it answers that 5 s later, then an
    // extra OK (the ESC that ended its PDU input), and only then reads what we wrote.
    line.modem.stall();
    const synchronised = line.settle(synchronise(line.context, timing));
    await line.clock.advance(5_000);
    line.modem.answerLate(['+CMS ERROR: 500', 'OK']);
    await synchronised;
    expect(line.modem.count('AT')).toBe(1);
    const identity = await line.settle(line.session.execute('AT+CGMI'));
    expect(identity.lines).toEqual(['Acme']);
  });

  it('tries AT again when the first one is lost, resynchronising before the next try', async () => {
    const line = await takeOver();
    let lost = 1;
    line.modem.script('AT', () => (lost-- > 0 ? [] : undefined));
    await line.settle(synchronise(line.context, timing));
    expect(line.modem.count('AT')).toBe(2);
    expect(line.modem.count(probe)).toBe(2);
  });

  it('gives up with the last answer when the modem never answers AT with a plain OK', async () => {
    const line = await takeOver();
    line.modem.script('AT', ['ERROR']);
    await expect(line.settle(synchronise(line.context, timing))).rejects.toMatchObject({
      code: ErrorCode.AtError,
    });
    expect(line.modem.count('AT')).toBe(timing.attempts);
  });

  it('gives up with a timeout when the modem says nothing at all', async () => {
    const line = await takeOver();
    line.modem.silent = true;
    await expect(line.settle(synchronise(line.context, timing))).rejects.toMatchObject({
      code: ErrorCode.AtTimeout,
    });
  });

  it('still takes over a modem that cannot echo, with a quiet wait instead', async () => {
    const line = await takeOver();
    line.modem.canEcho = false;
    await line.settle(synchronise(line.context, timing));
    const identity = await line.settle(line.session.execute('AT+CGMI'));
    expect(identity.lines).toEqual(['Acme']);
  });
});
