// `npm run dist`: electron-builder with this project's configuration, signed through Azure
// Trusted Signing when its account is named in the environment (scripts/cloudSigning.mjs).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { trustedSigningArgs } from './cloudSigning.mjs';

const signing = trustedSigningArgs(process.env);
if ('error' in signing) {
  process.stderr.write(`${signing.error}\n`);
  process.exit(2);
}
const cli = createRequire(import.meta.url).resolve('electron-builder/cli.js');
const builder = spawn(process.execPath, [cli, ...signing.args, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
builder.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
