import { readFileSync } from 'node:fs';

/**
 * Resource use of ANOTHER process (the gateway child), read from Linux's /proc: the figures
 * `process.cpuUsage()` and `process.memoryUsage().rss` would give inside it, without asking it.
 */

/** CLK_TCK: /proc/<pid>/stat counts CPU time in clock ticks, 100 per second on Linux. */
const TICKS_PER_SECOND = 100;

/** Resident set size in bytes (VmRSS of /proc/<pid>/status). */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match?.[1]) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** User + system CPU time the process has used so far, in ms. */
export function cpuMilliseconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing ")" are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5), i.e. 11 and 12 after the state field.
  const userTicks = Number(fields[11]);
  const systemTicks = Number(fields[12]);
  return ((userTicks + systemTicks) * 1000) / TICKS_PER_SECOND;
}
