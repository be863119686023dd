import { join } from 'node:path';
import { findBuiltUi } from '../composition/builtUi.js';
import { readPackageVersion } from '../composition/packageVersion.js';
import { parseCommandLine, usage } from '../config/commandLine.js';
import { describeError, ErrorCode, isGatewayError } from '../errors/gatewayError.js';
import { createGateway } from '../index.js';
import { silentLogger } from '../logging/logger.js';
import { backupDatabase } from '../store/backup.js';
import { databaseFileName } from '../store/sqlite/database.js';
import { resetLogin } from './resetLogin.js';

/**
 * What the headless entry (`main.ts`) does with its arguments: run the gateway, a backup, a reset
 * of a lost login, the MCP stdio bridge, help or version. Resolves with the exit code: 0 stopped cleanly, 1 failed at run time, 2 bad flags or
 * configuration. `onServing` is called once the API answers.
 */
export async function runCommandLine(argv: string[], onServing: () => void): Promise<number> {
  let commandLine: ReturnType<typeof parseCommandLine>;
  try {
    commandLine = parseCommandLine(argv);
  } catch (error) {
    process.stderr.write(`${describeError(error)}\n\n${usage}`);
    return 2;
  }
  if (commandLine.kind === 'help') {
    process.stdout.write(usage);
    return 0;
  }
  if (commandLine.kind === 'version') {
    process.stdout.write(`${readPackageVersion()}\n`);
    return 0;
  }

  if (commandLine.kind === 'backup') {
    try {
      await backupDatabase(join(commandLine.dataDir, databaseFileName), commandLine.target, silentLogger);
    } catch (error) {
      process.stderr.write(`Backup failed: ${describeError(error)}\n`);
      return 1;
    }
    process.stdout.write(`Backup written to ${commandLine.target}\n`);
    return 0;
  }

  if (commandLine.kind === 'reset-login') {
    try {
      const login = await resetLogin(commandLine.dataDir, silentLogger);
      process.stdout.write(
        `The login is now ${login.username} / ${login.password}   (shown once: keep it; every token issued before has ended)\n`,
      );
    } catch (error) {
      process.stderr.write(`Could not reset the login: ${describeError(error)}\n`);
      return 1;
    }
    return 0;
  }

  if (commandLine.kind === 'mcp') {
    // Only this command needs the MCP SDK's client and stdio layers.
    const { runMcpBridge } = await import('./mcpBridge.js');
    return runMcpBridge(commandLine, { stderr: process.stderr });
  }

  const options = commandLine.options;
  options.uiDirectory ??= findBuiltUi(import.meta.url);
  const gateway = createGateway(options);
  let started: Awaited<ReturnType<typeof gateway.start>>;
  // The core's timers never hold the process (clock.ts), and until the server listens nothing
  // else may: a built-in modem's bring-up waits on timers alone.
  const holdWhileStarting = setInterval(() => undefined, 60_000);
  try {
    started = await gateway.start();
  } catch (error) {
    process.stderr.write(`Could not start: ${describeError(error)}\n`);
    return isGatewayError(error, ErrorCode.ConfigInvalid) ? 2 : 1;
  } finally {
    clearInterval(holdWhileStarting);
  }
  onServing();
  const lines = [
    '',
    `  Desktop SMS Gateway is running at ${started.url}`,
    ...(options.uiDirectory === undefined
      ? ['  UI:           not built here (npm run build:ui), so not served']
      : [`  Open the UI:  ${started.url}/ui/`]),
    `  API docs:     ${started.url}/docs`,
    started.generatedPassword
      ? `  Login:        ${started.username} / ${started.generatedPassword}   (generated now, shown once: keep it)`
      : `  Login:        ${started.username} / (the password you set or were shown on first run)`,
  ];
  if (started.simulated) lines.push('  Modem:        SIMULATED — messages do not reach real phones');
  process.stdout.write(`${lines.join('\n')}\n\n`);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`\n${signal}: stopping…\n`);
      gateway.stop().then(
        () => resolve(0),
        (error: unknown) => {
          process.stderr.write(`Error while stopping: ${describeError(error)}\n`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
