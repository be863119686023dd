import { commandLineFlags } from '../server/config/commandLine.js';

export interface CoreArguments {
  /** Our own flags, in order, with their values: what the core's strict parser receives. */
  kept: string[];
  /** Everything else, for one log line: Chromium's switches, the OS's, a script path. */
  dropped: string[];
}

type FlagName = keyof typeof commandLineFlags;

/** `--help` and `--version` print to a terminal; the core in a utility process has none. */
const terminalOnly = new Set<string>(['help', 'version']);

function ownFlag(name: string): FlagName | undefined {
  return Object.hasOwn(commandLineFlags, name) && !terminalOnly.has(name) ? (name as FlagName) : undefined;
}

/**
 * Picks the gateway's own flags out of the Electron process's argv. That argv is not ours alone:
 * the AppImage runtime adds `--no-sandbox`, macOS adds `-psn_0_…` to apps started from Finder,
 * users add Chromium switches such as `--disable-gpu`, and unpackaged runs carry the script
 * path. The core's parser is strict (a typo must stop the headless CLI), so it sees only ours.
 * Give it `process.argv.slice(1)`: whatever is not a flag of ours is dropped.
 */
export function coreArguments(argv: readonly string[]): CoreArguments {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index] ?? '';
    const name = token.startsWith('--') ? ownFlag(token.slice(2).split('=', 1)[0] ?? '') : undefined;
    if (!name) {
      dropped.push(token);
      continue;
    }
    kept.push(token);
    const next = argv[index + 1];
    if (next === undefined || token.includes('=')) continue;
    // A string flag takes the next token as its value, as node:util parseArgs does; `--simulate`
    // takes an optional count (server/config/commandLine.ts reads it as a positional).
    const takesNext = commandLineFlags[name].type === 'string' || (name === 'simulate' && /^\d+$/.test(next));
    if (takesNext) {
      kept.push(next);
      index++;
    }
  }
  return { kept, dropped };
}

/**
 * The desktop preferences on top of the kept flags: the simulated modem when the user chose it
 * (`--simulate`, unless a count was given already), and the port chosen in Settings (or in the
 * start-up failure window) replaces the port of any --listen, keeping its host; without
 * --listen it is given as one, on loopback.
 */
export function withPreferences(
  args: readonly string[],
  preferences: { listenPort: number | null; useSimulator: boolean },
): string[] {
  const withSimulator =
    preferences.useSimulator && !args.includes('--simulate') ? [...args, '--simulate'] : [...args];
  return withListenPort(withSimulator, preferences.listenPort);
}

function withListenPort(args: readonly string[], listenPort: number | null): string[] {
  if (listenPort === null) return [...args];
  const result: string[] = [];
  let replaced = false;
  for (let index = 0; index < args.length; index++) {
    const token = args[index] ?? '';
    const joined = token.startsWith('--listen=');
    if (token !== '--listen' && !joined) {
      result.push(token);
      continue;
    }
    const value = joined ? token.slice('--listen='.length) : (args[++index] ?? '');
    result.push(`--listen=${withPort(value, listenPort)}`);
    replaced = true;
  }
  if (!replaced) result.push(`--listen=127.0.0.1:${listenPort}`);
  return result;
}

/** "0.0.0.0:8080" → "0.0.0.0:<port>"; "8080" (port only) → "<port>". */
function withPort(listen: string, port: number): string {
  const colon = listen.lastIndexOf(':');
  return colon === -1 || listen.endsWith(']') ? String(port) : `${listen.slice(0, colon + 1)}${port}`;
}
