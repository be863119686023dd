import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { type PortProbing, startPortProbing } from '../../server/devices/pool/portProbing.js';
import type { SerialPortInfo } from '../../server/devices/transport/portDiscovery.js';
import { silentLogger } from '../../server/logging/logger.js';

/** A machine's serial ports and a record of every probe; `answersFrom` says when a port answers. */
class FakeMachine {
  paths: string[] = [];
  readonly probes: string[] = [];
  /** Path → the probe number (1-based, per appearance) from which it answers AT. */
  readonly answersFrom = new Map<string, number>();
  private readonly probeCounts = new Map<string, number>();

  async listPorts(): Promise<SerialPortInfo[]> {
    return this.paths.map((path) => ({ path }));
  }

  async probe(ports: SerialPortInfo[]): Promise<SerialPortInfo[]> {
    const silent: SerialPortInfo[] = [];
    for (const port of ports) {
      this.probes.push(port.path);
      const count = (this.probeCounts.get(port.path) ?? 0) + 1;
      this.probeCounts.set(port.path, count);
      const from = this.answersFrom.get(port.path);
      if (from === undefined || count < from) silent.push(port);
    }
    return silent;
  }

  unplug(path: string): void {
    this.paths = this.paths.filter((candidate) => candidate !== path);
    this.probeCounts.delete(path);
  }

  probesOf(path: string): number {
    return this.probes.filter((probed) => probed === path).length;
  }
}

const running: PortProbing[] = [];
afterEach(() => {
  for (const probing of running.splice(0)) probing.stop();
});

function start(machine: FakeMachine, clock: ManualClock, vanished?: (paths: string[]) => void): PortProbing {
  const probing = startPortProbing({
    listPorts: () => machine.listPorts(),
    probe: (ports) => machine.probe(ports),
    ...(vanished ? { vanished } : {}),
    clock,
    logger: silentLogger,
    intervalMs: 1_000,
    retryDelaysMs: [2_000, 4_000, 8_000],
  });
  running.push(probing);
  return probing;
}

describe('probing serial ports in the background', () => {
  it('probes a silent port again with back-off, then leaves it alone until it reappears', async () => {
    const clock = new ManualClock();
    const machine = new FakeMachine();
    machine.paths = ['/dev/ttyS0'];
    await start(machine, clock).firstRound;
    expect(machine.probesOf('/dev/ttyS0')).toBe(1);
    await clock.advance(2_000);
    expect(machine.probesOf('/dev/ttyS0')).toBe(2);
    await clock.advance(4_000);
    expect(machine.probesOf('/dev/ttyS0')).toBe(3);
    await clock.advance(8_000);
    expect(machine.probesOf('/dev/ttyS0')).toBe(4);
    await clock.advance(60_000);
    expect(machine.probesOf('/dev/ttyS0')).toBe(4);

    machine.unplug('/dev/ttyS0');
    await clock.advance(1_000);
    machine.paths = ['/dev/ttyS0'];
    await clock.advance(1_000);
    expect(machine.probesOf('/dev/ttyS0')).toBe(5);
  });

  it('finds a modem that answers only seconds after its port appeared (EC2x, SIM7600 booting)', async () => {
    const clock = new ManualClock();
    const machine = new FakeMachine();
    machine.paths = ['/dev/ttyUSB2'];
    machine.answersFrom.set('/dev/ttyUSB2', 3);
    await start(machine, clock).firstRound;
    await clock.advance(6_000);
    expect(machine.probesOf('/dev/ttyUSB2')).toBe(3);
    await clock.advance(60_000);
    expect(machine.probesOf('/dev/ttyUSB2')).toBe(3);
  });

  it('probes only the port that arrived, not the ports that were already there', async () => {
    const clock = new ManualClock();
    const machine = new FakeMachine();
    machine.paths = ['/dev/ttyS0'];
    machine.answersFrom.set('/dev/ttyS0', 1);
    await start(machine, clock).firstRound;
    machine.paths = ['/dev/ttyS0', '/dev/ttyACM0'];
    machine.answersFrom.set('/dev/ttyACM0', 1);
    await clock.advance(1_000);
    await clock.advance(30_000);
    expect(machine.probes).toEqual(['/dev/ttyS0', '/dev/ttyACM0']);
  });

  it('says which ports left the list, once, so what was learnt about them is dropped', async () => {
    const clock = new ManualClock();
    const machine = new FakeMachine();
    machine.paths = ['/dev/ttyS0', '/dev/ttyUSB0', '/dev/ttyUSB1'];
    const vanished: string[][] = [];
    await start(machine, clock, (paths) => vanished.push(paths)).firstRound;
    machine.unplug('/dev/ttyUSB0');
    machine.unplug('/dev/ttyUSB1');
    await clock.advance(1_000);
    await clock.advance(1_000);
    expect(vanished).toEqual([['/dev/ttyUSB0', '/dev/ttyUSB1']]);
  });

  it('stops probing and retrying when stopped', async () => {
    const clock = new ManualClock();
    const machine = new FakeMachine();
    machine.paths = ['/dev/ttyS0'];
    const probing = start(machine, clock);
    await probing.firstRound;
    probing.stop();
    machine.paths = ['/dev/ttyS0', '/dev/ttyUSB0'];
    await clock.advance(60_000);
    expect(machine.probes).toEqual(['/dev/ttyS0']);
  });
});
