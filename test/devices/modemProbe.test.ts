import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { probeForModem } from '../../server/devices/modemProbe.js';
import { createMemoryLink } from '../../server/transport/memoryTransport.js';

describe('probeForModem', () => {
  /** `answer` to each AT from the `answersFrom`-th one on (an autobauding modem skips the first). */
  async function probe(answer: string | undefined, answersFrom = 1) {
    const clock = new ManualClock();
    const link = createMemoryLink('probe');
    await link.device.open();
    let received = 0;
    link.device.onData((chunk) => {
      if (chunk.toString('latin1').includes('AT')) received++;
      if (answer !== undefined && received >= answersFrom) void link.device.write(answer);
    });
    let settled = false;
    const result = probeForModem(() => link.host, { timeoutMs: 2_000, clock }).finally(() => {
      settled = true;
    });
    for (let step = 0; step < 30 && !settled; step++) await clock.advance(500);
    return { found: await result, link, received };
  }

  it('finds a modem that answers OK, and closes the port again', async () => {
    const { found, link } = await probe('AT\r\r\nOK\r\n');
    expect(found).toBe(true);
    expect(link.host.isOpen).toBe(false);
  });

  it('finds an autobauding modem (SIM800) that answers only a later AT', async () => {
    const { found, received } = await probe('\r\nOK\r\n', 2);
    expect(found).toBe(true);
    expect(received).toBe(2);
  });

  it('says no to a port that answers ERROR', async () => {
    expect((await probe('\r\nERROR\r\n')).found).toBe(false);
  });

  it('says no to a silent port after the timeout', async () => {
    const { found, link, received } = await probe(undefined);
    expect(found).toBe(false);
    expect(received).toBe(3);
    expect(link.host.isOpen).toBe(false);
  });

  it('says no when the port cannot be opened', async () => {
    const link = createMemoryLink('broken');
    link.host.open = async () => {
      throw new Error('EACCES');
    };
    expect(await probeForModem(() => link.host, { timeoutMs: 100, clock: new ManualClock() })).toBe(false);
  });
});
