import { describe, expect, it } from 'vitest';
import { type CoreState, CoreSupervisor } from '../../electron/coreSupervisor.js';
import { RestartPolicy } from '../../electron/restartPolicy.js';
import type { StartFailure } from '../../electron/startFailure.js';
import { ManualClock } from '../../server/clock/manualClock.js';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { type FakeUtilityProcess, fakeUtilityProcess } from './support/electronDouble.js';

const ready = { type: 'ready', baseUrl: 'http://127.0.0.1:8080', sessionToken: 't0', simulated: false };

function setup(args: () => string[] = () => ['--listen', '8080']) {
  const clock = new ManualClock();
  const electron = fakeUtilityProcess();
  const supervisor = new CoreSupervisor({
    fork: electron.fork,
    entry: '/app/dist/electron/coreProcess.js',
    args,
    clock,
    logger: silentLogger,
    output: () => undefined,
    restartPolicy: new RestartPolicy({ healthyAfterMs: 60_000, firstDelayMs: 1_000, maxDelayMs: 8_000 }),
    tokenTimeoutMs: 5_000,
  });
  const failures: StartFailure[] = [];
  const states: CoreState[] = [];
  supervisor.on('start-failed', (failure) => failures.push(failure));
  supervisor.on('state', (state) => states.push(state));
  const latest = (): FakeUtilityProcess => {
    const child = electron.children.at(-1);
    if (!child) throw new Error('no core started');
    return child;
  };
  return { clock, supervisor, children: electron.children, latest, failures, states };
}

function tokenRequestIds(child: FakeUtilityProcess): number[] {
  return child.posted.flatMap((message) =>
    message.type === 'renew-session-token' ? [message.requestId] : [],
  );
}

describe('the core supervisor', () => {
  it('reports each start-up failure with its cause and tries again after a growing pause', async () => {
    const { clock, supervisor, children, latest, failures, states } = setup();
    supervisor.start();
    const failure: StartFailure = { kind: 'port-in-use', port: 8080, message: 'port 8080 is already in use' };
    latest().reply({ type: 'start-failed', failure });
    expect(latest().killed).toBe(true);
    await clock.advance(0);
    expect(failures).toEqual([failure]);
    expect(states.at(-1)).toEqual({
      kind: 'waiting-to-retry',
      attempt: 1,
      retryAt: clock.now() + 1_000,
      reason: failure.message,
      wasReady: false,
    });
    await clock.advance(1_000);
    expect(children).toHaveLength(2);
    latest().exit(1);
    await clock.advance(1_999);
    expect(children).toHaveLength(2);
    await clock.advance(1);
    expect(children).toHaveLength(3);
    expect(failures[1]).toEqual({ kind: 'other', message: expect.stringContaining('exit code 1') });
  });

  it('waits for a person after a bad start-up option, which the next attempt would meet again', async () => {
    const { clock, supervisor, children, latest, states } = setup();
    supervisor.start();
    latest().reply({ type: 'start-failed', failure: { kind: 'bad-option', message: '--listen: bad' } });
    await clock.advance(60 * 60_000);
    expect(children).toHaveLength(1);
    expect(states.at(-1)).toEqual({ kind: 'stopped', reason: 'needs-a-person', detail: '--listen: bad' });
    supervisor.retryNow();
    expect(children).toHaveLength(2);
  });

  it('restarts a core that crashed after ready, with growing pauses up to the cap, without end', async () => {
    const { clock, supervisor, children, latest, failures } = setup();
    supervisor.start();
    for (const delay of [1_000, 2_000, 4_000, 8_000, 8_000, 8_000]) {
      latest().reply(ready);
      latest().exit(139);
      await clock.advance(delay - 1);
      const before = children.length;
      await clock.advance(1);
      expect(children.length).toBe(before + 1);
    }
    expect(failures).toEqual([]);
  });

  it('stops retrying when a person says so, and starts at once when asked', async () => {
    const { clock, supervisor, children, latest, states } = setup();
    supervisor.start();
    latest().reply(ready);
    latest().exit(139);
    supervisor.stopRetrying();
    expect(states.at(-1)).toEqual({ kind: 'stopped', reason: 'retries-stopped' });
    await clock.advance(60 * 60_000);
    expect(children).toHaveLength(1);
    supervisor.retryNow();
    expect(children).toHaveLength(2);
    expect(states.at(-1)).toEqual({ kind: 'starting' });
  });

  it('counts crashes afresh after the core ran long enough to be healthy', async () => {
    const { clock, supervisor, children, latest } = setup();
    supervisor.start();
    for (let round = 0; round < 5; round++) {
      latest().reply(ready);
      await clock.advance(60_000);
      latest().exit(1);
      await clock.advance(1_000);
    }
    expect(children).toHaveLength(6);
  });

  it('reads its arguments again for each start, so a changed preference applies', async () => {
    let port = '8080';
    const { supervisor, children, latest } = setup(() => ['--listen', port]);
    supervisor.start();
    latest().reply(ready);
    port = '8081';
    const restarted = supervisor.restart();
    expect(latest().posted).toContainEqual({ type: 'shutdown' });
    latest().exit(0);
    await restarted;
    expect(children.map((child) => child.args)).toEqual([
      ['--listen', '8080'],
      ['--listen', '8081'],
    ]);
  });

  it('answers concurrent token requests each with its own token', async () => {
    const { supervisor, latest } = setup();
    supervisor.start();
    latest().reply(ready);
    const first = supervisor.requestSessionToken();
    const second = supervisor.requestSessionToken();
    const [firstId, secondId] = tokenRequestIds(latest());
    latest().reply({ type: 'session-token', requestId: secondId, sessionToken: 'b' });
    latest().reply({ type: 'session-token', requestId: firstId, sessionToken: 'a' });
    await expect(first).resolves.toBe('a');
    await expect(second).resolves.toBe('b');
  });

  it('settles every waiting token request with CoreUnavailable when the core goes away', async () => {
    const { supervisor, latest } = setup();
    supervisor.start();
    latest().reply(ready);
    const waiting = [supervisor.requestSessionToken(), supervisor.requestSessionToken()];
    latest().exit(139);
    for (const request of waiting) {
      await expect(request).rejects.toSatisfy((error) => isGatewayError(error, ErrorCode.CoreUnavailable));
    }
    await expect(supervisor.requestSessionToken()).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.CoreUnavailable),
    );
  });

  it('rejects a token request the core refuses or leaves unanswered', async () => {
    const { clock, supervisor, latest } = setup();
    supervisor.start();
    latest().reply(ready);
    const refused = supervisor.requestSessionToken();
    const [refusedId] = tokenRequestIds(latest());
    latest().reply({ type: 'session-token-failed', requestId: refusedId, message: 'store closed' });
    await expect(refused).rejects.toSatisfy((error) => isGatewayError(error, ErrorCode.CoreUnavailable));

    const unanswered = supervisor.requestSessionToken();
    const outcome = expect(unanswered).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.CoreUnavailable),
    );
    await clock.advance(5_000);
    await outcome;
  });

  it('stops the core cleanly, and kills it when it does not stop in time', async () => {
    const { clock, supervisor, latest, states } = setup();
    supervisor.start();
    latest().reply(ready);
    const stopped = supervisor.stop();
    expect(latest().posted).toContainEqual({ type: 'shutdown' });
    await clock.advance(10_000);
    await stopped;
    expect(latest().killed).toBe(true);
    expect(states.at(-1)).toEqual({ kind: 'stopped', reason: 'quit' });
  });
});
