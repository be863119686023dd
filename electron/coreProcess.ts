// The gateway core inside an Electron utility process (see coreSupervisor.ts). Plain Node: it
// imports the same server/ code the headless CLI runs.
import { fileURLToPath } from 'node:url';
import { systemClock } from '../server/clock/clock.js';
import { parseCommandLine } from '../server/config/commandLine.js';
import { defaultListen, localUrlOf } from '../server/config/options.js';
import { describeError } from '../server/errors/gatewayError.js';
import { createGateway } from '../server/index.js';
import { coreHealthOf } from './coreHealth.js';
import { type CoreToMain, isMainToCore } from './coreMessages.js';
import { HealthReporter } from './healthReporter.js';
import { classifyStartFailure, findRunningGateway } from './startFailure.js';
import { uiDirectoryFor } from './uiDirectory.js';

const parentPort = process.parentPort;
const post = (message: CoreToMain) => parentPort.postMessage(message);
let listen: { host: string; port: number } = { ...defaultListen };

async function run(): Promise<void> {
  const commandLine = parseCommandLine(process.argv.slice(2));
  if (commandLine.kind !== 'run') throw new Error('--help and --version are for the command line');
  const options = commandLine.options;
  listen = options.listen;
  // In the desktop app the simulator is the user's choice (a preference that adds --simulate),
  // never a silent stand-in for a USB modem that enumerates a little after login.
  options.simulatorFallback = false;
  options.uiDirectory ??= uiDirectoryFor(fileURLToPath(import.meta.url));
  const gateway = createGateway(options, {
    onSchemaUpgrade: ({ from, to, backup }) => post({ type: 'schema-upgrade', from, to, backup }),
  });
  const started = await gateway.start();

  gateway.events.on('message:received', (incoming) => {
    const preview =
      incoming.type === 'SMS' ? incoming.content.slice(0, 120) : `data message to port ${incoming.port}`;
    post({ type: 'incoming', sender: incoming.sender, preview });
  });
  gateway.events.on('sending:paused', ({ paused }) => post({ type: 'sending-paused', paused }));
  const health = new HealthReporter({
    read: async () => coreHealthOf(await gateway.healthReport(), gateway.attention()),
    post: (report) => post({ type: 'health', health: report }),
    clock: systemClock,
  });
  gateway.events.on('message:enqueued', () => health.nudge());
  gateway.events.on('message:updated', () => health.nudge());
  parentPort.on('message', (event: { data: unknown }) => {
    const message = event.data;
    if (!isMainToCore(message)) return;
    switch (message.type) {
      case 'set-sending-paused':
        gateway.setSendingPaused(message.paused);
        break;
      case 'renew-session-token': {
        const { requestId } = message;
        gateway.windowSessionToken().then(
          (sessionToken) =>
            post({
              type: 'session-token',
              requestId,
              ...(sessionToken === undefined ? {} : { sessionToken }),
            }),
          (error: unknown) =>
            post({ type: 'session-token-failed', requestId, message: describeError(error) }),
        );
        break;
      }
      case 'recheck-modems':
        gateway.recheckModems();
        health.nudge();
        break;
      case 'shutdown':
        health.stop();
        void gateway.stop().finally(() => process.exit(0));
        break;
    }
  });
  post({
    type: 'ready',
    baseUrl: started.url,
    simulated: started.simulated,
    username: started.username,
    ...(started.generatedPassword === undefined ? {} : { generatedPassword: started.generatedPassword }),
  });
  // A pause outlasts restarts: the tray shows the state the core started in.
  post({ type: 'sending-paused', paused: gateway.sendingPaused });
  health.start();
}

run().catch(async (error: unknown) => {
  const failure = classifyStartFailure(error, listen);
  if (failure.kind === 'port-in-use') {
    const running = await findRunningGateway(localUrlOf(listen));
    if (running) failure.runningGatewayUrl = running;
  }
  post({ type: 'start-failed', failure });
  // The supervisor ends this process when the message arrives; exiting at once could drop it.
  setTimeout(() => process.exit(1), 2_000);
});
