import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The gateway as a CHILD process, started through its real CLI, so a load generator or a
 * fault injector in this process never shares the gateway's event loop and `kill -9` is real.
 */
export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const benchUsername = 'u';
export const benchPassword = 'pppppppp';
export const basicAuthorization = `Basic ${Buffer.from(`${benchUsername}:${benchPassword}`).toString('base64')}`;

/** How every gateway of a benchmark run is started: the build it runs and Node's own flags. */
export interface GatewayLaunch {
  /**
   * Run `dist/server/cli/main.js` (after `npm run build:core`) instead of the TypeScript source
   * through tsx: start-up time then excludes tsx's on-the-fly compilation, as in the product.
   */
  compiled: boolean;
  /** Node flags for the child, e.g. ['--cpu-prof']. */
  nodeArgs?: readonly string[];
}

export interface GatewayProcessOptions extends Partial<GatewayLaunch> {
  dataDir: string;
  /** Serial ports (pty links) to open as modems. */
  modems?: readonly string[];
  /** Extra CLI flags, e.g. ['--resend-interrupted']. */
  extraArgs?: readonly string[];
  /** How long to wait for GET /health to answer, ms (default 120 s). */
  readyTimeoutMs?: number;
}

export interface GatewayProcess {
  url: string;
  pid: number;
  /** From spawn to the first answer of GET /health, ms. */
  readyMs: number;
  /** The child's stdout and stderr so far (the last 64 KiB), for failure messages. */
  output(): string;
  /** False once the process has ended, for whatever reason (a crash included). */
  isRunning(): boolean;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Sends a signal and waits for the process to end. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** SIGTERM (a clean stop), then SIGKILL if it has not ended within 15 s. */
  stop(): Promise<void>;
}

const OUTPUT_KEPT = 64 * 1024;
const POLL_MS = 5;

export const compiledCliPath = join(repositoryRoot, 'dist', 'server', 'cli', 'main.js');

export async function startGatewayProcess(options: GatewayProcessOptions): Promise<GatewayProcess> {
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const useCompiled = options.compiled === true && existsSync(compiledCliPath);
  const entry = useCompiled ? [compiledCliPath] : ['--import', 'tsx', join('server', 'cli', 'main.ts')];
  const args = [
    ...(options.nodeArgs ?? []),
    ...entry,
    '--data-dir',
    options.dataDir,
    '--no-probe',
    '--username',
    benchUsername,
    '--password',
    benchPassword,
    '--listen',
    `127.0.0.1:${port}`,
    '--log-level',
    'WARN',
    ...(options.modems ?? []).flatMap((path) => ['--modem', path]),
    ...(options.extraArgs ?? []),
  ];
  const startedAt = performance.now();
  const child = spawn(process.execPath, args, { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pid = child.pid;
  if (pid === undefined) throw new Error('the gateway process did not start');

  try {
    await waitForHealth(url, child, options.readyTimeoutMs ?? 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n--- gateway output ---\n${output}`,
    );
  }
  const readyMs = performance.now() - startedAt;

  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    pid,
    readyMs,
    output: () => output,
    isRunning: () => child.exitCode === null && child.signalCode === null,
    exited,
    kill,
    async stop() {
      const forced = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await kill('SIGTERM');
      clearTimeout(forced);
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the gateway exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    }
    try {
      // Any answer counts: /health says 503 while a modem is still starting, yet the API is up.
      await (await fetch(`${url}/health`)).arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  throw new Error(`GET /health did not answer within ${timeoutMs} ms`);
}

/** A loopback port nobody listens on right now (the OS picks it). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
