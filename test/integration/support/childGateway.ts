/**
 * The gateway as its own process, started through the real CLI (`server/cli/main.ts` under
 * tsx), so a test can `kill -9` it the way a power cut or a crash would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import { createApi, type GatewayApi, harnessPassword, harnessUser } from '../../support/gatewayHarness.js';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface ChildGatewayOptions {
  dataDir: string;
  /** A serial modem's path (`--modem`); absent: only what `extraArgs` names (e.g. `--phone`). */
  modemPath?: string;
  port: number;
  /** More CLI flags, e.g. fleet mode's --server-url and --server-token. */
  extraArgs?: readonly string[];
}

export interface ChildGateway {
  readonly api: GatewayApi;
  readonly pid: number;
  /** Everything the process wrote to stdout and stderr, for failure messages. */
  output(): string;
  /** SIGKILL: no shutdown code runs. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit (SIGKILL after `graceMs`); answers the exit code (null: killed). */
  stop(graceMs?: number): Promise<number | null>;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

/** Starts the CLI and resolves once its API answers and its modem is ready. */
export async function startChildGateway(options: ChildGatewayOptions): Promise<ChildGateway> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/cli/main.ts',
      '--data-dir',
      options.dataDir,
      ...(options.modemPath === undefined ? [] : ['--modem', options.modemPath]),
      '--no-probe',
      '--username',
      harnessUser,
      '--password',
      harnessPassword,
      '--listen',
      `127.0.0.1:${options.port}`,
      ...(options.extraArgs ?? []),
    ],
    { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const gateway: ChildGateway = {
    api: createApi(() => `http://127.0.0.1:${options.port}`),
    pid: child.pid ?? -1,
    output: () => output,
    kill: async () => {
      if (isRunning(child)) child.kill('SIGKILL');
      await exited;
    },
    stop: async (graceMs = 10_000) => {
      if (isRunning(child)) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
  try {
    await vi.waitFor(
      async () => {
        if (!isRunning(child)) throw new Error(`the gateway exited early:\n${output}`);
        const devices = await gateway.api.get<{ modem?: { status?: string } }[]>('/devices');
        if (!devices.body?.some((device) => device.modem?.status === 'ready'))
          throw new Error('modem not ready');
      },
      { timeout: 30_000, interval: 100 },
    );
  } catch (error) {
    await gateway.kill();
    throw error;
  }
  return gateway;
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}
