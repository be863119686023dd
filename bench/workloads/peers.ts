import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { BenchSizes } from '../support/benchSizes.js';
import { type PtyModemFleet, startPtyModemFleet } from '../support/ptyModems.js';
import { median } from '../support/stats.js';
import { fixed, type Table } from '../support/table.js';

/**
 * The same modem workload through other open-source SMS daemons from Debian, against the same
 * simulated modem on a pty, each with its fastest documented settings. They poll their queues,
 * so they are expected at a few messages per second.
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
  /** Runs the workload, or says why it cannot. */
  measure?: (sizes: BenchSizes) => Promise<PeerResult>;
  notDriven?: string;
}

const peers: Peer[] = [
  { name: 'gammu-smsd', debianPackage: 'gammu-smsd', executable: 'gammu-smsd', measure: measureGammu },
  { name: 'smstools3', debianPackage: 'smstools', executable: 'smsd', measure: measureSmstools },
  {
    name: 'Kannel',
    debianPackage: 'kannel',
    executable: 'bearerbox',
    notDriven: 'not driven by this benchmark yet (bearerbox + smsbox set-up not written)',
  },
];

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
    if (peer.notDriven !== undefined || peer.measure === undefined) {
      notes.push(`${peer.name}: skipped — ${peer.notDriven ?? 'no workload'}.`);
      continue;
    }
    const installed = ensureInstalled(peer);
    if (installed !== true) {
      notes.push(`${peer.name}: skipped — ${installed}.`);
      continue;
    }
    try {
      const result = await peer.measure(sizes);
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

/** A daemon that sends what is dropped as files into a spool folder. */
interface SpoolDaemon {
  folders: string[];
  /** Folder (under the working directory) where a file queues one message. */
  outbox: string;
  config(device: string, directory: string): string;
  command(directory: string): { executable: string; args: string[] };
  file(serial: number, text: string): { name: string; content: string };
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

function measureGammu(sizes: BenchSizes): Promise<PeerResult> {
  return measureSpoolDaemon(sizes, gammu);
}

function measureSmstools(sizes: BenchSizes): Promise<PeerResult> {
  return measureSpoolDaemon(sizes, smstools);
}

async function measureSpoolDaemon(sizes: BenchSizes, spool: SpoolDaemon): Promise<PeerResult> {
  const runs: PeerResult[] = [];
  for (let run = 0; run < sizes.runs; run++) {
    const fleet = await startPtyModemFleet(1);
    const directory = await mkdtemp(join(tmpdir(), 'sms-bench-peer-'));
    let daemon: ChildProcess | undefined;
    try {
      for (const folder of spool.folders) await mkdir(join(directory, folder));
      await writeFile(join(directory, 'config'), spool.config(fleet.paths[0] ?? '', directory));
      const { executable, args } = spool.command(directory);
      daemon = spawn(executable, args, { stdio: 'ignore' });
      let serial = 0;
      const queue = (text: string) => {
        const file = spool.file(serial++, text);
        return writeFile(join(directory, spool.outbox, file.name), file.content);
      };
      // The first message also waits for the daemon to open and set up the modem: not timed.
      await queue('warm-up');
      await waitForPdus(fleet, 1, 60_000);
      const latencies: number[] = [];
      for (let sample = 0; sample < 3; sample++) {
        const before = fleet.acceptedCount();
        const startedAt = performance.now();
        await queue(`latency ${sample}`);
        await waitForPdus(fleet, before + 1, 30_000);
        latencies.push(performance.now() - startedAt);
      }
      const count = peerMessages(sizes);
      const before = fleet.acceptedCount();
      const startedAt = performance.now();
      for (let index = 0; index < count; index++) await queue(`peer message ${index}`);
      await waitForPdus(fleet, before + count, count * 5_000 + 30_000);
      runs.push({
        messagesPerSecond: count / ((performance.now() - startedAt) / 1000),
        latencyMs: median(latencies),
      });
    } finally {
      if (daemon && daemon.exitCode === null) {
        const exited = new Promise((resolve) => daemon?.once('exit', resolve));
        daemon.kill('SIGTERM');
        await exited;
      }
      await fleet.close();
      await rm(directory, { recursive: true, force: true });
    }
  }
  return {
    messagesPerSecond: median(runs.map((run) => run.messagesPerSecond)),
    latencyMs: median(runs.map((run) => run.latencyMs)),
  };
}

async function waitForPdus(fleet: PtyModemFleet, count: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (fleet.acceptedCount() < count) {
    if (performance.now() > deadline)
      throw new Error(`only ${fleet.acceptedCount()} of ${count} PDUs within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
