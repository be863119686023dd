import { describe, expect, it } from 'vitest';
import { AtSession } from '../../server/at/atSession.js';
import { ManualClock } from '../../server/clock/manualClock.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { synchronise } from '../../server/modem/modemSetup.js';
import { createMemoryLink } from '../../server/transport/memoryTransport.js';

const timing = { attempts: 5, timeoutMs: 2_000, quietMs: 200 };

/**
 * A line another process left mid-conversation: `answer` decides what the modem writes back for
 * each command line (and for the ESC), so a test can make it answer late or twice.
 */
async function takeOver(answer: (written: string, index: number) => string[]) {
  const clock = new ManualClock();
  const link = createMemoryLink('left-over-line');
  await link.device.open();
  const written: string[] = [];
  link.device.onData((chunk) => {
    const text = chunk.toString('latin1');
    written.push(text);
    for (const reply of answer(text, written.length - 1)) void link.device.write(reply);
  });
  const session = new AtSession(link.host, { clock, logger: silentLogger });
  await session.open();
  /** Runs `promise` while time passes in 50 ms steps (quiet windows and timeouts need it). */
  const settle = async <T>(promise: Promise<T>): Promise<T> => {
    let done = false;
    const tracked = promise.finally(() => {
      done = true;
    });
    tracked.catch(() => undefined);
    for (let step = 0; step < 400 && !done; step++) await clock.advance(50);
    return tracked;
  };
  return { session, written, settle, context: { session, clock, commandTimeoutMs: 2_000 } };
}

describe('taking over a modem line (synchronise)', () => {
  it('writes ESC first and drops the OK that answers it, so the first AT gets its own answer', async () => {
    const line = await takeOver((text) => (text === '\x1b' || text === 'AT\r' ? ['\r\nOK\r\n'] : []));
    await line.settle(synchronise(line.context, timing));
    expect(line.written).toEqual(['\x1b', 'AT\r']);
  });

  it("does not accept an OK that another line follows: every later command would get its predecessor's answer", async () => {
    // The first AT is answered twice (a dead process's OK, then its own), like a line one answer behind.
    const line = await takeOver((text, index) => {
      if (text === '\x1b') return [];
      if (text === 'AT\r' && index === 1) return ['\r\nOK\r\n', '\r\nOK\r\n'];
      if (text === 'AT\r') return ['\r\nOK\r\n'];
      if (text === 'AT+CGMI\r') return ['\r\nAcme\r\n\r\nOK\r\n'];
      return ['\r\nERROR\r\n'];
    });
    await line.settle(synchronise(line.context, timing));
    expect(line.written).toEqual(['\x1b', 'AT\r', 'AT\r']);
    const identity = await line.settle(line.session.execute('AT+CGMI'));
    expect(identity.lines).toEqual(['Acme']);
  });

  it("takes a refusal that answers the first AT for a dead process's send, and tries again", async () => {
    // The network's answer to a PDU submitted before we opened arrives first, then AT's own OK.
    const line = await takeOver((text, index) => {
      if (text === 'AT\r' && index === 1) return ['\r\n+CMS ERROR: 500\r\n', '\r\nOK\r\n'];
      if (text === 'AT\r') return ['\r\nOK\r\n'];
      return [];
    });
    await line.settle(synchronise(line.context, timing));
    expect(line.written).toEqual(['\x1b', 'AT\r', 'AT\r']);
  });

  it('gives up with the last answer when the modem never answers AT with a plain OK', async () => {
    const line = await takeOver((text) => (text === 'AT\r' ? ['\r\nERROR\r\n'] : []));
    await expect(line.settle(synchronise(line.context, timing))).rejects.toMatchObject({
      code: ErrorCode.AtError,
    });
    expect(line.written.filter((text) => text === 'AT\r')).toHaveLength(timing.attempts);
  });
});
