import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { IncomingCalls, parseClipNumber } from '../../server/devices/modem/incomingCalls.js';
import type { IncomingCall } from '../../server/devices/pool/sinks.js';
import { createLogger } from '../../server/logging/logger.js';

function tracker(options: { reject: boolean; hangUp?: () => Promise<void> }) {
  const clock = new ManualClock();
  const calls: IncomingCall[] = [];
  let hangUps = 0;
  const incoming = new IncomingCalls({
    deviceId: () => 'modem-1',
    clock,
    logger: createLogger({ level: 'ERROR', sinks: [] }),
    rejectCalls: () => options.reject,
    hangUp:
      options.hangUp ??
      (async () => {
        hangUps++;
      }),
    onCall: (call) => calls.push(call),
  });
  const code = (line: string) => {
    const [name = '', args = ''] = line.split(/:\s?/, 2);
    return incoming.handleUnsolicited({ name, args, line });
  };
  return { clock, calls, code, hangUps: () => hangUps };
}

describe('incoming calls (RING, +CLIP)', () => {
  it('records a call once with its number, hangs up once, and ignores its further rings', async () => {
    const { clock, calls, code, hangUps } = tracker({ reject: true });
    const start = clock.now();
    expect(code('RING')).toBe(true);
    expect(code('+CLIP: "+447700900123",145,,,,0')).toBe(true);
    await clock.advance(4_000);
    code('RING');
    code('+CLIP: "+447700900123",145,,,,0');
    await clock.advance(1);
    expect(calls).toEqual([{ deviceId: 'modem-1', number: '+447700900123', at: start, rejected: true }]);
    expect(hangUps()).toBe(1);
  });

  it('records a withheld number after waiting for a +CLIP that never comes', async () => {
    const { clock, calls, code } = tracker({ reject: false });
    code('RING');
    await clock.advance(1_000);
    expect(calls).toEqual([]);
    await clock.advance(1_000);
    expect(calls).toEqual([expect.objectContaining({ rejected: false })]);
    expect(calls[0]?.number).toBeUndefined();
  });

  it('takes a RING after a long pause as a new call', async () => {
    const { clock, calls, code } = tracker({ reject: false });
    code('RING');
    code('+CLIP: "+447700900123",145');
    await clock.advance(11_000);
    code('RING');
    code('+CLIP: "+447700900456",145');
    expect(calls.map((call) => call.number)).toEqual(['+447700900123', '+447700900456']);
  });

  it('records a call as not rejected when hanging up failed', async () => {
    const { clock, calls, code } = tracker({
      reject: true,
      hangUp: () => Promise.reject(new Error('ERROR')),
    });
    code('+CLIP: "+447700900123",145');
    await clock.advance(1);
    expect(calls).toEqual([expect.objectContaining({ number: '+447700900123', rejected: false })]);
  });

  it('leaves other codes alone', () => {
    const { code } = tracker({ reject: true });
    expect(code('+CMTI: "SM",1')).toBe(false);
  });

  it.each([
    ['"+447700900123",145,,,,0', '+447700900123'],
    ['"",128,,,,1', undefined],
    ['"0123456",129', '0123456'],
  ])('reads the number of +CLIP: %s', (args, number) => {
    expect(parseClipNumber(args)).toBe(number);
  });
});
