import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { withOpenTimeout } from '../../server/devices/transport/openTimeout.js';
import type { Transport } from '../../server/devices/transport/transport.js';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';

/** A port whose open hangs until `finishOpening` (a Bluetooth COM port waiting for its device). */
function hangingPort() {
  let finish: () => void = () => undefined;
  const state = { open: false, closed: 0 };
  const transport: Transport = {
    description: 'COM7',
    get isOpen() {
      return state.open;
    },
    open: () =>
      new Promise<void>((resolve) => {
        finish = () => {
          state.open = true;
          resolve();
        };
      }),
    write: async () => undefined,
    close: async () => {
      state.open = false;
      state.closed++;
    },
    onData: () => () => undefined,
    onClose: () => () => undefined,
  };
  return { transport, state, finishOpening: () => finish() };
}

describe('opening a port with a timeout', () => {
  it('rejects with TransportOpenFailed when the port does not open in time, and closes it if it opens later', async () => {
    const clock = new ManualClock();
    const port = hangingPort();
    const opening = withOpenTimeout(port.transport, clock, 5_000)
      .open()
      .catch((error: unknown) => error);
    await clock.advance(5_000);
    expect(isGatewayError(await opening, ErrorCode.TransportOpenFailed)).toBe(true);
    port.finishOpening();
    await clock.advance(0);
    expect(port.state).toEqual({ open: false, closed: 1 });
  });

  it('opens normally when the port answers in time', async () => {
    const clock = new ManualClock();
    const port = hangingPort();
    const opening = withOpenTimeout(port.transport, clock, 5_000).open();
    await clock.advance(100);
    port.finishOpening();
    await opening;
    await clock.advance(10_000);
    expect(port.state).toEqual({ open: true, closed: 0 });
  });
});
