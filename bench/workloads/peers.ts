import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, connect, createServer, type Server } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { BenchSizes } from '../support/benchSizes.js';
import { type PtyModemFleet, startPtyModemFleet } from '../support/ptyModems.js';
import { median } from '../support/stats.js';
import { fixed, type Table } from '../support/table.js';

/**
 * The same modem workload through other open-source SMS daemons from Debian, against the same
 * simulated modem on a pty, each with its fastest documented settings. They poll their queues,
 * so they are expected at a few messages per second at most.
 */
export interface OwnFigures {
  messagesPerSecond: number;
  idleLatencyMs: number;
}

interface PeerResult {
  messagesPerSecond: number;
  latencyMs: number;
}

interface Peer {
  name: string;
  /** Debian package that provides it. */
  debianPackage: string;
  executable: string;
  /** Starts it for the workload. */
  daemon: PeerDaemon;
}

export async function runPeers(sizes: BenchSizes, own: OwnFigures): Promise<Table> {
  const rows: string[][] = [
    ['this gateway', fixed(own.messagesPerSecond, 1), fixed(own.idleLatencyMs), '1.0', '1.0'],
  ];
  const notes: string[] = [];
  for (const peer of peers) {
    if (sizes.quick) {
      notes.push(`${peer.name}: skipped in --quick (it would install a Debian package).`);
      continue;
    }
    const installed = ensureInstalled(peer);
    if (installed !== true) {
      notes.push(`${peer.name}: skipped — ${installed}.`);
      continue;
    }
    try {
      const result = await measurePeer(sizes, peer.daemon);
      rows.push([
        peer.name,
        fixed(result.messagesPerSecond, 1),
        fixed(result.latencyMs),
        fixed(own.messagesPerSecond / result.messagesPerSecond, 0),
        fixed(result.latencyMs / own.idleLatencyMs, 0),
      ]);
    } catch (error) {
      notes.push(`${peer.name}: skipped — ${error instanceof Error ? error.message : String(error)}.`);
    }
  }
  return {
    title: 'Peers on the same simulated pty modem (one modem, single-part)',
    headers: ['daemon', 'messages/s', 'queue → PDU ms (median)', 'our rate ÷ theirs', 'their latency ÷ ours'],
    rows,
    notes: [
      `Median of ${sizes.runs} run(s) of ${peerMessages(sizes)} messages each, queued at once; latency: one ` +
        'message queued to an idle daemon until its PDU is at the modem.',
      ...notes,
    ],
  };
}

function peerMessages(sizes: BenchSizes): number {
  // They drain about one message a second: keep a full run to a minute or two per peer.
  return Math.min(sizes.modemMessages, 30);
}

/** true, or why the peer cannot run here. */
function ensureInstalled(peer: Peer): true | string {
  const present = () => spawnSync('sh', ['-c', `command -v ${peer.executable}`]).status === 0;
  if (present()) return true;
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', peer.debianPackage], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: 'ignore',
    }).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update'], { stdio: 'ignore' });
    if (!install()) return `apt-get install ${peer.debianPackage} failed (not root, or no package index)`;
  }
  return present() ? true : `${peer.executable} not found after installing ${peer.debianPackage}`;
}

/** A peer daemon started for one run, on one modem. */
interface RunningPeer {
  /** Hands the daemon one message for +447700900123; resolves once it has taken it. */
  queue(text: string): Promise<void>;
  /** Throws why, if the daemon has died: a wait for PDUs then fails at once, with the reason. */
  check(): void;
  /** SIGTERM to each process, then waits for it to exit. */
  stop(): Promise<void>;
}

interface PeerDaemon {
  /** Starts the daemon on the modem at `device`; `directory` is fresh and removed afterwards. */
  start(device: string, directory: string): Promise<RunningPeer>;
}

/** A daemon that sends what is dropped as files into a spool folder. */
interface SpoolDaemon {
  folders: string[];
  /** Folder (under the working directory) where a file queues one message. */
  outbox: string;
  config(device: string, directory: string): string;
  command(directory: string): { executable: string; args: string[] };
  file(serial: number, text: string): { name: string; content: string };
}

function spoolPeer(spool: SpoolDaemon): PeerDaemon {
  return {
    async start(device, directory) {
      for (const folder of spool.folders) await mkdir(join(directory, folder));
      await writeFile(join(directory, 'config'), spool.config(device, directory));
      const { executable, args } = spool.command(directory);
      const daemon = spawnDaemon(executable, args);
      let serial = 0;
      return {
        queue(text) {
          const file = spool.file(serial++, text);
          return writeFile(join(directory, spool.outbox, file.name), file.content);
        },
        check: () => daemon.check(),
        stop: () => daemon.stop(),
      };
    },
  };
}

/**
 * gammu-smsd with the files service. Fastest documented settings (gammu-smsdrc(5)): LoopSleep 0
 * and CommTimeout 0 (no pause between outbox scans), status, signal, battery and network checks
 * off, receiving checked only hourly so reads never delay sends.
 */
const gammu: SpoolDaemon = {
  folders: ['inbox', 'outbox', 'sent', 'error'],
  outbox: 'outbox',
  config: (device, directory) =>
    [
      '[gammu]',
      `device = ${device}`,
      'connection = at',
      '[smsd]',
      'service = files',
      `inboxpath = ${directory}/inbox/`,
      `outboxpath = ${directory}/outbox/`,
      `sentsmspath = ${directory}/sent/`,
      `errorsmspath = ${directory}/error/`,
      `logfile = ${directory}/log`,
      'LoopSleep = 0',
      'CommTimeout = 0',
      'SendTimeout = 10',
      'ReceiveFrequency = 3600',
      'StatusFrequency = 0',
      'CheckSecurity = 0',
      'CheckBattery = 0',
      'CheckSignal = 0',
      'CheckNetwork = 0',
      '',
    ].join('\n'),
  command: (directory) => ({ executable: 'gammu-smsd', args: ['-c', join(directory, 'config')] }),
  file: (serial, text) => ({
    name: `OUTA20260101_000000_${String(serial).padStart(5, '0')}_+447700900123_bench.txt`,
    content: text,
  }),
};

/**
 * smstools3's smsd, in the foreground. Fastest documented settings (smsd.conf(5)): delaytime and
 * the main process's delay and sleep at their 1 s minimum, no receiving, no network or SIM checks,
 * no status reports.
 */
const smstools: SpoolDaemon = {
  folders: ['outgoing', 'checked', 'failed', 'incoming', 'sent'],
  outbox: 'outgoing',
  config: (device, directory) =>
    [
      'devices = GSM1',
      ...['outgoing', 'checked', 'failed', 'incoming', 'sent'].map(
        (folder) => `${folder} = ${directory}/${folder}`,
      ),
      `logfile = ${directory}/smsd.log`,
      'loglevel = 4',
      `infofile = ${directory}/smsd.working`,
      `pidfile = ${directory}/smsd.pid`,
      'delaytime = 1',
      'delaytime_mainprocess = 1',
      'sleeptime_mainprocess = 1',
      'receive_before_send = no',
      '',
      '[GSM1]',
      `device = ${device}`,
      'incoming = no',
      'baudrate = 115200',
      'check_network = 0',
      'check_sim = no',
      'report = no',
      '',
    ].join('\n'),
  // -t: stay in the foreground; -u/-g: keep the current user instead of the package's "smsd".
  command: (directory) => ({
    executable: 'smsd',
    args: ['-t', `-c${join(directory, 'config')}`, `-u${userInfo().username}`, `-g${groupName()}`],
  }),
  file: (serial, text) => ({ name: `bench${serial}`, content: `To: 447700900123\n\n${text}\n` }),
};

function groupName(): string {
  const result = spawnSync('id', ['-gn'], { encoding: 'utf8' });
  return result.stdout.trim() || 'root';
}

/**
 * Kannel 1.4.5: bearerbox drives the modem with its AT driver, smsbox takes messages over HTTP
 * (/cgi-bin/sendsms) and hands them to bearerbox. Fastest documented settings (Kannel user
 * guide, "AT" SMSC and modems groups): a named modem definition, so no model detection (ATI and
 * sleeps) on start; a fixed speed, so no baud-rate probing; sendline-sleep 0 instead of 100 ms
 * after every line written (three per message); no need-sleep, no hardware handshake command or
 * RTS/CTS, no keepalive, no SIM buffering (AT+CPMS polling), no status reports (+CNMI <ds> 0 and
 * no dlr-mask), no message store (no store-location), no throughput limit; logs at warning level.
 * Its driver still sends one message per pass of a loop that first listens to the modem for 1–2 s.
 */
const kannel: PeerDaemon = {
  async start(device, directory) {
    const [adminPort = 0, smsboxPort = 0, sendsmsPort = 0] = await freePorts(3);
    const config = join(directory, 'kannel.conf');
    await writeFile(config, kannelConfig(device, directory, { adminPort, smsboxPort, sendsmsPort }));
    // -v 2: warnings and worse on stderr (kept for the error message if a box dies).
    const bearerbox = spawnDaemon('bearerbox', ['-v', '2', config]);
    let smsbox: DaemonProcess | undefined;
    const stop = async () => {
      await smsbox?.stop();
      await bearerbox.stop();
    };
    try {
      // smsbox gives up if bearerbox is not listening yet, and queues only once its HTTP port is up.
      await waitForPort(smsboxPort, bearerbox);
      smsbox = spawnDaemon('smsbox', ['-v', '2', config]);
      await waitForPort(sendsmsPort, smsbox);
    } catch (error) {
      await stop();
      throw error;
    }
    const running = smsbox;
    return {
      async queue(text) {
        const query = new URLSearchParams({
          username: KANNEL_USER,
          password: KANNEL_PASSWORD,
          to: '+447700900123',
          text,
        });
        const response = await fetch(`http://127.0.0.1:${sendsmsPort}/cgi-bin/sendsms?${query}`, {
          signal: AbortSignal.timeout(10_000),
        });
        const body = await response.text();
        if (!response.ok) throw new Error(`smsbox answered ${response.status} ${body.trim()}`);
      },
      check() {
        bearerbox.check();
        running.check();
      },
      stop,
    };
  },
};

const KANNEL_USER = 'bench';
const KANNEL_PASSWORD = 'bench';

function kannelConfig(
  device: string,
  directory: string,
  ports: { adminPort: number; smsboxPort: number; sendsmsPort: number },
): string {
  return [
    'group = core',
    `admin-port = ${ports.adminPort}`,
    'admin-interface = 127.0.0.1',
    'admin-password = bench',
    `smsbox-port = ${ports.smsboxPort}`,
    'smsbox-interface = 127.0.0.1',
    'box-allow-ip = 127.0.0.1',
    `log-file = ${directory}/bearerbox.log`,
    'log-level = 2',
    `access-log = ${directory}/access.log`,
    'dlr-storage = internal',
    '',
    'group = smsc',
    'smsc = at',
    'smsc-id = bench',
    `device = ${device}`,
    'modemtype = bench',
    'speed = 115200',
    'keepalive = 0',
    'sim-buffering = false',
    '',
    'group = modems',
    'id = bench',
    'name = "simulated modem"',
    'speed = 115200',
    'init-string = "AT+CNMI=1,2,0,0,0"',
    'enable-hwhs = ""',
    'hardware-flow-control = false',
    'need-sleep = false',
    'sendline-sleep = 0',
    '',
    'group = smsbox',
    'bearerbox-host = 127.0.0.1',
    `bearerbox-port = ${ports.smsboxPort}`,
    `sendsms-port = ${ports.sendsmsPort}`,
    'sendsms-interface = 127.0.0.1',
    // The AT driver puts no sender in the PDU, but smsbox refuses a message without one.
    'global-sender = 447700900000',
    `log-file = ${directory}/smsbox.log`,
    'log-level = 2',
    '',
    'group = sendsms-user',
    `username = ${KANNEL_USER}`,
    `password = ${KANNEL_PASSWORD}`,
    '',
  ].join('\n');
}

// Below the daemons it lists: a const is not usable before its declaration.
const peers: Peer[] = [
  { name: 'gammu-smsd', debianPackage: 'gammu-smsd', executable: 'gammu-smsd', daemon: spoolPeer(gammu) },
  { name: 'smstools3', debianPackage: 'smstools', executable: 'smsd', daemon: spoolPeer(smstools) },
  // The package also provides smsbox.
  { name: 'Kannel', debianPackage: 'kannel', executable: 'bearerbox', daemon: kannel },
];

/**
 * Runs a peer like the gateway is measured: one untimed warm-up message (the daemon opens and
 * sets up the modem), idle latency samples, then a batch queued at once for the rate.
 */
async function measurePeer(sizes: BenchSizes, daemon: PeerDaemon): Promise<PeerResult> {
  const runs: PeerResult[] = [];
  for (let run = 0; run < sizes.runs; run++) {
    const fleet = await startPtyModemFleet(1);
    const directory = await mkdtemp(join(tmpdir(), 'sms-bench-peer-'));
    let peer: RunningPeer | undefined;
    try {
      const running = await daemon.start(fleet.paths[0] ?? '', directory);
      peer = running;
      const waitFor = (count: number, timeoutMs: number) =>
        waitForPdus(fleet, count, timeoutMs, () => running.check());
      await running.queue('warm-up');
      await waitFor(1, 60_000);
      const latencies: number[] = [];
      for (let sample = 0; sample < 3; sample++) {
        const before = fleet.acceptedCount();
        const startedAt = performance.now();
        await running.queue(`latency ${sample}`);
        await waitFor(before + 1, 30_000);
        latencies.push(performance.now() - startedAt);
      }
      const count = peerMessages(sizes);
      const before = fleet.acceptedCount();
      const startedAt = performance.now();
      for (let index = 0; index < count; index++) await running.queue(`peer message ${index}`);
      await waitFor(before + count, count * 5_000 + 30_000);
      runs.push({
        messagesPerSecond: count / ((performance.now() - startedAt) / 1000),
        latencyMs: median(latencies),
      });
    } finally {
      await peer?.stop();
      await fleet.close();
      await rm(directory, { recursive: true, force: true });
    }
  }
  return {
    messagesPerSecond: median(runs.map((run) => run.messagesPerSecond)),
    latencyMs: median(runs.map((run) => run.latencyMs)),
  };
}

interface DaemonProcess {
  /** Throws if the process failed to start or has exited. */
  check(): void;
  stop(): Promise<void>;
}

function spawnDaemon(executable: string, args: string[]): DaemonProcess {
  const child = spawn(executable, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2_000);
  });
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    check() {
      if (spawnError !== undefined) throw new Error(`${executable} did not start: ${spawnError.message}`);
      if (!exited()) return;
      const lastLine = stderr.trim().split('\n').at(-1);
      throw new Error(
        `${executable} exited (${child.exitCode ?? child.signalCode})${lastLine ? `: ${lastLine}` : ''}`,
      );
    },
    async stop() {
      if (child.pid === undefined || exited()) return;
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      // A daemon that ignores SIGTERM must not hang the benchmark.
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await done;
      clearTimeout(timer);
    },
  };
}

/** Loopback ports free right now (bound to port 0 together, then released). */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Server>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

async function waitForPort(port: number, daemon: DaemonProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    daemon.check();
    if (await accepts(port)) return;
    if (performance.now() > deadline)
      throw new Error(`nothing listening on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await delay(50);
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitForPdus(
  fleet: PtyModemFleet,
  count: number,
  timeoutMs: number,
  check: () => void,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (fleet.acceptedCount() < count) {
    check();
    if (performance.now() > deadline)
      throw new Error(`only ${fleet.acceptedCount()} of ${count} PDUs within ${timeoutMs} ms`);
    await delay(10);
  }
}
