import { parseCommandLine } from '../server/config/commandLine.js';
import { localUrlOf } from '../server/config/options.js';
import { findRunningGateway } from './startFailure.js';

/**
 * Where the core this app would start listens: its arguments (with the preferences' port)
 * parsed as the core parses them, SMSGW_* variables included. Undefined when they do not parse:
 * the core's own start then reports the bad option.
 */
export function coreUrlOf(args: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  try {
    const parsed = parseCommandLine(args, env);
    return parsed.kind === 'run' ? localUrlOf(parsed.options.listen) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A gateway that runs as a service (systemd, a Windows scheduled task; docs/desktop.md) holds the
 * data folder and the port before anyone logs in. The desktop app then starts no core of its
 * own, which could only fail on the lock, and shows that one in its window instead: it answers
 * `GET /health` in the gateway's shape on the port this app would use.
 */
export async function runningServiceAt(
  url: string | undefined,
  fetchImpl: typeof fetch = fetch,
): Promise<string | undefined> {
  return url === undefined ? undefined : findRunningGateway(url, fetchImpl);
}
