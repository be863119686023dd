import { createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { coreArguments, withPreferences } from '../../electron/coreArguments.js';
import { type FailureDialogHost, FailureWindow, resolveStartFailure } from '../../electron/failureDialog.js';
import { canListen, nextFreePort } from '../../electron/freePort.js';
import type { StartFailure } from '../../electron/startFailure.js';
import { parseCommandLine } from '../../server/config/commandLine.js';
import { fakeDialog } from './support/electronDouble.js';

function host(click: (buttons: string[]) => string | undefined, free: number | undefined = 8081) {
  const calls: string[] = [];
  const dialog = fakeDialog(click);
  const fake: FailureDialogHost = {
    showMessageBox: dialog.showMessageBox,
    nextFreePort: async () => free,
    saveListenPort: async (port) => {
      calls.push(`port ${port}`);
    },
    restartCore: async () => {
      calls.push('restart');
    },
    openExternal: async (url) => {
      calls.push(`open ${url}`);
    },
    quit: () => calls.push('quit'),
  };
  return { fake, calls, shown: dialog.shown };
}

const portInUse: StartFailure = { kind: 'port-in-use', port: 8080, message: 'port 8080 is already in use' };

describe('the start-up failure window', () => {
  it('offers a free port for a taken one, saves it as the preference and restarts once', async () => {
    const { fake, calls, shown } = host((buttons) => buttons.find((label) => label.startsWith('Use port')));
    const action = await resolveStartFailure(portInUse, fake, { retrying: true });
    expect(action).toEqual({ kind: 'use-port', port: 8081 });
    expect(calls).toEqual(['port 8081', 'restart']);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.message).toContain('8080');
  });

  it('opens the gateway already running on the port, then quits this one', async () => {
    const failure: StartFailure = { ...portInUse, runningGatewayUrl: 'http://127.0.0.1:8080' };
    const { fake, calls, shown } = host((buttons) => buttons[0]);
    await resolveStartFailure(failure, fake, { retrying: true });
    expect(shown[0]?.buttons[0]).toBe('Open the running gateway');
    expect(calls).toEqual(['open http://127.0.0.1:8080/ui/', 'quit']);
  });

  it('offers another port for a port the system refuses (a Windows excluded range: EACCES)', async () => {
    const { fake, calls, shown } = host((buttons) => buttons[0]);
    await resolveStartFailure({ kind: 'port-forbidden', port: 50_000, message: 'refused' }, fake, {
      retrying: true,
    });
    expect(shown[0]?.detail).toContain('excludedportrange');
    expect(calls).toEqual(['port 8081', 'restart']);
  });

  it('keeps trying on Escape while the app retries, and offers only Quit for a bad option', async () => {
    const escaped = host(() => undefined);
    const action = await resolveStartFailure(portInUse, escaped.fake, { retrying: true });
    expect(action).toEqual({ kind: 'keep-trying' });
    expect(escaped.calls).toEqual([]);
    expect(escaped.shown[0]?.buttons.at(-2)).toBe('Keep trying');
    expect(escaped.shown[0]?.detail).toContain('15 minutes');

    const bad = host(() => undefined);
    await resolveStartFailure({ kind: 'bad-option', message: '--listen: "x" is not <host:port>' }, bad.fake, {
      retrying: false,
    });
    expect(bad.shown[0]?.buttons).toEqual(['Quit']);
    expect(bad.shown[0]?.detail).toContain('--listen');
    expect(bad.calls).toEqual(['quit']);
  });

  it('shows one window at a time and closes it when a later attempt starts the core', async () => {
    const { fake, shown, calls } = host(() => 'wait');
    const outcomes: string[] = [];
    const window = new FailureWindow((failure, options) =>
      resolveStartFailure(failure, fake, options).then((action) => {
        outcomes.push(action.kind);
        return action;
      }),
    );
    window.show(portInUse, { retrying: true });
    window.show(portInUse, { retrying: true });
    await vi.waitFor(() => expect(shown).toHaveLength(1));
    expect(window.isOpen).toBe(true);
    window.close();
    await vi.waitFor(() => expect(outcomes).toEqual(['keep-trying']));
    expect(calls).toEqual([]);
  });

  it('does not come back for the same cause after Keep trying, but does for another', async () => {
    const { fake, shown } = host(() => 'Keep trying');
    const window = new FailureWindow((failure, options) => resolveStartFailure(failure, fake, options));
    window.show(portInUse, { retrying: true });
    await vi.waitFor(() => expect(window.isOpen).toBe(false));
    window.show(portInUse, { retrying: true });
    window.show(portInUse, { retrying: true });
    expect(shown).toHaveLength(1);
    window.show({ kind: 'data-dir-locked', message: 'in use by pid 42' }, { retrying: true });
    await vi.waitFor(() => expect(shown).toHaveLength(2));
  });

  it('lets the user try again after stopping the gateway that holds the data folder', async () => {
    const { fake, calls } = host((buttons) => buttons.find((label) => label === 'Try again'));
    await resolveStartFailure({ kind: 'data-dir-locked', message: 'in use by pid 42' }, fake, {
      retrying: true,
    });
    expect(calls).toEqual(['restart']);
  });
});

describe('the port preference', () => {
  it('replaces the port of --listen, keeping its host, or adds --listen on loopback', () => {
    const port = (args: string[]) => {
      const parsed = parseCommandLine(args, {});
      return parsed.kind === 'run' ? parsed.options.listen : undefined;
    };
    expect(
      port(withPreferences(['--listen', '0.0.0.0:8080'], { listenPort: 9000, useSimulator: false })),
    ).toEqual({
      host: '0.0.0.0',
      port: 9000,
    });
    expect(port(withPreferences(['--listen=[::1]:8080'], { listenPort: 9000, useSimulator: false }))).toEqual(
      {
        host: '::1',
        port: 9000,
      },
    );
    expect(
      port(withPreferences(coreArguments(['--simulate']).kept, { listenPort: 9000, useSimulator: false })),
    ).toEqual({
      host: '127.0.0.1',
      port: 9000,
    });
    expect(withPreferences(['--simulate'], { listenPort: null, useSimulator: false })).toEqual([
      '--simulate',
    ]);
  });

  it('wins over SMSGW_LISTEN, so the port chosen after a failure applies', () => {
    const parsed = parseCommandLine(withPreferences([], { listenPort: 9001, useSimulator: false }), {
      SMSGW_LISTEN: '8080',
    });
    expect(parsed.kind === 'run' && parsed.options.listen.port).toBe(9001);
  });
});

describe('finding a free port to offer', () => {
  it('skips a port that is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    if (typeof address !== 'object' || address === null) throw new Error('no port');
    try {
      expect(await canListen('127.0.0.1', address.port)).toBe(false);
      const offered = await nextFreePort('127.0.0.1', address.port - 1);
      expect(offered).toBeGreaterThan(address.port);
      expect(await canListen('127.0.0.1', offered ?? 0)).toBe(true);
    } finally {
      blocker.close();
    }
  });
});
