/**
 * A fake `adb` program for tests (a phone and the adb server cannot exist here): a small Node
 * script written to a temporary folder, run by the gateway exactly as the real one (execFile,
 * on PATH or by --adb). It prints what platform-tools' adb prints:
 * - `devices -l`: "List of devices attached", then "SERIAL<spaces>STATE usb:… product:… model:…
 *   device:… transport_id:N" per phone, then an empty line;
 * - `-s SERIAL forward tcp:0 tcp:8080`: the local port it chose, on its own line;
 * - `-s SERIAL reverse tcp:N tcp:M` and `forward --remove tcp:P`: nothing;
 * - errors on stderr with exit status 1: "adb: error: device 'SERIAL' not found",
 *   "adb: error: device unauthorized." (+ the ADB_VENDOR_KEYS hint), "adb: error: listener
 *   'tcp:P' not found".
 * The "chosen" forward port is the phone double's own port, so requests reach it as they would
 * reach the phone through a real forward. The script's state (phones, forwards, calls) is a JSON
 * file beside it.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FakeAdbPhone {
  serial: string;
  state: 'device' | 'unauthorized' | 'offline';
  /** The phone double's port: where a forward to its tcp:8080 leads. */
  appPort: number;
}

interface FakeAdbState {
  phones: FakeAdbPhone[];
  forwards: { serial: string; local: number; remote: string }[];
  reverses: { serial: string; remote: string; local: string }[];
  calls: string[];
}

const script = `#!/usr/bin/env node
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const statePath = join(__dirname, 'state.json');
const state = JSON.parse(readFileSync(statePath, 'utf8'));
let args = process.argv.slice(2);
state.calls.push(args.join(' '));
const save = () => writeFileSync(statePath, JSON.stringify(state));
const fail = (text) => { save(); process.stderr.write(text + '\\n'); process.exit(1); };
let serial;
if (args[0] === '-s') { serial = args[1]; args = args.slice(2); }
if (args[0] === 'devices') {
  let out = 'List of devices attached\\n';
  state.phones.forEach((phone, index) => {
    const where = phone.state === 'device'
      ? 'usb:1-' + (index + 1) + ' product:oriole model:Pixel_6 device:oriole transport_id:' + (index + 1)
      : 'usb:1-' + (index + 1) + ' transport_id:' + (index + 1);
    out += phone.serial.padEnd(22) + ' ' + phone.state + ' ' + where + '\\n';
  });
  save();
  process.stdout.write(out + '\\n');
  process.exit(0);
}
const phone = state.phones.find((candidate) => candidate.serial === serial);
if (!phone) fail("adb: error: device '" + serial + "' not found");
if (phone.state === 'unauthorized') fail("adb: error: device unauthorized.\\nThis adb server's $ADB_VENDOR_KEYS is not set\\nTry 'adb kill-server' if that seems wrong.\\nOtherwise check for a confirmation dialog on your device.");
if (phone.state === 'offline') fail('adb: error: device offline');
if (args[0] === 'forward' && args[1] === '--remove') {
  const local = Number(args[2].replace('tcp:', ''));
  const index = state.forwards.findIndex((forward) => forward.local === local);
  if (index < 0) fail("adb: error: listener '" + args[2] + "' not found");
  state.forwards.splice(index, 1);
  save();
  process.exit(0);
}
if (args[0] === 'forward') {
  state.forwards.push({ serial, local: phone.appPort, remote: args[2] });
  save();
  process.stdout.write(args[1] === 'tcp:0' ? phone.appPort + '\\n' : '');
  process.exit(0);
}
if (args[0] === 'reverse') {
  state.reverses.push({ serial, remote: args[1], local: args[2] });
  save();
  process.exit(0);
}
fail('adb: unknown command ' + args.join(' '));
`;

export interface FakeAdb {
  /** The folder to put first on PATH. */
  readonly directory: string;
  /** The program itself (for --adb). */
  readonly path: string;
  setPhones(phones: FakeAdbPhone[]): Promise<void>;
  state(): Promise<FakeAdbState>;
  remove(): Promise<void>;
}

export async function createFakeAdb(phones: FakeAdbPhone[] = []): Promise<FakeAdb> {
  const directory = await mkdtemp(join(tmpdir(), 'smsgw-fake-adb-'));
  const path = join(directory, 'adb');
  const statePath = join(directory, 'state.json');
  // CommonJS, whatever the package type around it.
  await writeFile(join(directory, 'package.json'), '{"type":"commonjs"}');
  await writeFile(path, script);
  await chmod(path, 0o755);
  const write = (state: FakeAdbState) => writeFile(statePath, JSON.stringify(state));
  const read = async () => JSON.parse(await readFile(statePath, 'utf8')) as FakeAdbState;
  await write({ phones, forwards: [], reverses: [], calls: [] });
  return {
    directory,
    path,
    async setPhones(next) {
      await write({ ...(await read()), phones: next });
    },
    state: read,
    remove: () => rm(directory, { recursive: true, force: true }),
  };
}
