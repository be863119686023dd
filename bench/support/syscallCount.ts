import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Counts one system call of a running process over a stretch of time. */
export interface SyscallCount {
  /** Detaches and answers how many calls were made since `countSyscall`; undefined if unknown. */
  stop(): Promise<number | undefined>;
}

/**
 * `strace -c` attached to every thread of `pid` (the fdatasyncs run on libuv's thread pool),
 * counting only `syscall`. Undefined when strace is missing or may not attach (ptrace
 * restrictions): the figure is then left out, the benchmark still runs.
 */
export async function countSyscall(pid: number, syscall: string): Promise<SyscallCount | undefined> {
  if (spawnSync('strace', ['-V']).status !== 0) return undefined;
  const directory = await mkdtemp(join(tmpdir(), 'sms-bench-strace-'));
  const output = join(directory, 'summary');
  const tracer: ChildProcess = spawn(
    'strace',
    ['-qq', '-f', '-c', '-e', `trace=${syscall}`, '-o', output, '-p', String(pid)],
    {
      stdio: 'ignore',
    },
  );
  // strace attaches within milliseconds; a failed attach ends it at once.
  await new Promise((resolve) => setTimeout(resolve, 300));
  if (tracer.exitCode !== null) {
    await rm(directory, { recursive: true, force: true });
    return undefined;
  }
  return {
    async stop() {
      const ended = once(tracer, 'exit');
      tracer.kill('SIGINT');
      await ended;
      try {
        return callsIn(await readFile(output, 'utf8'), syscall);
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
  };
}

/** The `calls` column of `syscall`'s row in an `strace -c` summary (0 when it has no row). */
function callsIn(summary: string, syscall: string): number {
  for (const line of summary.split('\n')) {
    const columns = line.trim().split(/\s+/);
    if (columns.at(-1) === syscall) return Number(columns[3]);
  }
  return 0;
}
