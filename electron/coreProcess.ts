// The gateway core inside an Electron utility process (see coreSupervisor.ts). Plain Node: it
// imports the same server/ code the headless CLI runs.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from '../server/config/commandLine.js';
import { describeError } from '../server/errors/gatewayError.js';
import { createGateway } from '../server/index.js';
import { type CoreToMain, isMainToCore } from './coreMessages.js';

const parentPort = process.parentPort;
const post = (message: CoreToMain) => parentPort.postMessage(message);

async function run(): Promise<void> {
  const commandLine = parseCommandLine(process.argv.slice(2));
  if (commandLine.kind !== 'run') throw new Error('--help and --version are for the command line');
  const options = commandLine.options;
  options.uiDirectory ??= join(dirname(fileURLToPath(import.meta.url)), '..', 'ui');
  const gateway = createGateway(options);
  const started = await gateway.start();

  gateway.events.on('message:received', (incoming) => {
    const preview =
      incoming.type === 'SMS' ? incoming.content.slice(0, 120) : `data message to port ${incoming.port}`;
    post({ type: 'incoming', sender: incoming.sender, preview });
  });
  parentPort.on('message', (event: { data: unknown }) => {
    const message = event.data;
    if (!isMainToCore(message)) return;
    switch (message.type) {
      case 'set-sending-paused':
        gateway.setSendingPaused(message.paused);
        break;
      case 'renew-session-token':
        void gateway
          .issueSessionToken()
          .then((sessionToken) => post({ type: 'session-token', sessionToken }));
        break;
      case 'shutdown':
        void gateway.stop().finally(() => process.exit(0));
        break;
    }
  });
  post({
    type: 'ready',
    baseUrl: started.url,
    sessionToken: await gateway.issueSessionToken(),
    simulated: started.simulated,
  });
}

run().catch((error: unknown) => {
  post({ type: 'fatal', message: `The gateway could not start: ${describeError(error)}` });
  process.exit(1);
});
