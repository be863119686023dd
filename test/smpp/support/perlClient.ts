import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '../../support/pollUntil.js';
import { requireSystemTool } from '../../support/systemTools.js';

/** A Perl client script of this folder, run with `perl`, its stdout read line by line. */
export interface PerlClient {
  readonly lines: readonly string[];
  /** Waits (generously) for a line matching `pattern` and returns it. */
  waitForLine(pattern: RegExp, what: string): Promise<string>;
  /** Waits for `count` lines matching `pattern` and returns them all, in order. */
  waitForLines(pattern: RegExp, count: number, what: string): Promise<string[]>;
  readonly exited: Promise<number | null>;
  /** Writes one line to the script's stdin (session.pl's commands). */
  send(line: string): void;
  output(): string;
  kill(): void;
}

const folder = dirname(fileURLToPath(import.meta.url));

export function runPerlClient(script: string, args: readonly string[]): PerlClient {
  const perl = requireSystemTool('net-smpp');
  const child: ChildProcess = spawn(perl, [join(folder, script), ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const output = () => `${lines.join('\n')}\n--- stderr ---\n${stderr}`;
  return {
    lines,
    exited,
    output,
    async waitForLine(pattern, what) {
      await pollUntil(() => lines.some((line) => pattern.test(line)) || child.exitCode !== null, {
        what,
        limitMs: 120_000,
      });
      const line = lines.find((candidate) => pattern.test(candidate));
      if (!line) throw new Error(`${what}: the client ended first\n${output()}`);
      return line;
    },
    async waitForLines(pattern, count, what) {
      const matching = () => lines.filter((line) => pattern.test(line));
      await pollUntil(() => matching().length >= count || child.exitCode !== null, {
        what,
        limitMs: 120_000,
      });
      const found = matching();
      if (found.length < count) throw new Error(`${what}: the client ended first\n${output()}`);
      return found;
    },
    send: (line) => {
      child.stdin?.write(`${line}\n`);
    },
    kill: () => child.kill('SIGKILL'),
  };
}
