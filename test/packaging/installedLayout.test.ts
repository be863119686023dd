import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DatabaseSync } from '@photostructure/sqlite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  PatternReply,
  PatternRequest,
  PatternThreadData,
} from '../../server/services/patterns/patternProtocol.js';
import type { ConnectionRequest } from '../../server/store/sqlite/connectionWorker.js';
import { walkPackagedImports } from './support/packagedImports.js';

/**
 * The installed app, built for real: `npm run build`'s output packed by electron-builder with the
 * project's own electron-builder.yml into the Linux unpacked target (`--linux dir`, the folder
 * the AppImage and deb are made from). Electron's binary cannot be downloaded here, so
 * `electronDist` points at a stand-in: one file, named as electron-builder expects, that holds
 * only the fuse wire @electron/fuses flips. The app under test is `resources/` beside it.
 */

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
// electron-builder's own archive reader: the copy its packer (app-builder-lib) depends on.
const asar = createRequire(
  createRequire(require.resolve('electron-builder/package.json')).resolve('app-builder-lib/package.json'),
)('@electron/asar') as { extractAll(archive: string, destination: string): void };

/** @electron/fuses' sentinel; the wire follows it: version 1, length, one byte per fuse. */
const fuseSentinel = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron's own defaults, in @electron/fuses' FuseV1Options order. */
const defaultFuses = '10110001';

let work: string;
/** resources/ of the packaged app. */
let resources: string;
/** app.asar extracted, with the unpacked files in their places: the app as Electron sees it. */
let app: string;
let executable: string;

interface Started {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** What the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code once the process is gone. */
  exited: Promise<number | null>;
}

function start(command: string, args: readonly string[], cwd: string, env = process.env): Started {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, output: () => output, exited };
}

async function mustRun(command: string, args: readonly string[], cwd: string): Promise<void> {
  const started = start(command, args, cwd);
  const code = await started.exited;
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}:\n${started.output()}`);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'smsgw-package-'));
  // dist/ui is built by vitest's globalSetup (test/support/buildUi.ts); this is build:core.
  await mustRun(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    repositoryRoot,
  );

  const electronDist = join(work, 'electron');
  await mkdir(electronDist);
  const standIn = join(electronDist, 'electron');
  await writeFile(
    standIn,
    Buffer.concat([
      Buffer.from(
        '#!/bin/sh\n# A stand-in for the Electron binary in a packaging test; never run.\nexit 1\n',
      ),
      Buffer.from(fuseSentinel),
      Buffer.from([1, defaultFuses.length]),
      Buffer.from(defaultFuses),
    ]),
  );
  await chmod(standIn, 0o755);
  const electronVersion = (
    JSON.parse(await readFile(require.resolve('electron/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const output = join(work, 'release');
  await mustRun(
    process.execPath,
    [
      require.resolve('electron-builder/cli.js'),
      '--linux',
      'dir',
      `-c.electronDist=${electronDist}`,
      `-c.electronVersion=${electronVersion}`,
      `-c.directories.output=${output}`,
    ],
    repositoryRoot,
  );
  const unpackedTarget = (await readdir(output)).find(
    (name) => name.startsWith('linux') && name.endsWith('unpacked'),
  );
  if (!unpackedTarget) throw new Error(`no linux-*unpacked folder in ${output}`);
  const appOut = join(output, unpackedTarget);
  resources = join(appOut, 'resources');
  executable = join(appOut, 'desktop-sms-gateway');
  app = join(work, 'app');
  asar.extractAll(join(resources, 'app.asar'), app);
}, 170_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * The SQLite threads' modules: startThread (connectionWorker.ts) starts `./<module>.js` beside
 * itself for each `new ConnectionWorker({ module: '<module>', … })`. Read from the package, so a
 * new thread is checked without being listed here.
 */
async function threadScripts(): Promise<string[]> {
  const threads = join(app, 'dist/server/store/sqlite');
  const names = new Set<string>();
  for (const file of await filesUnder(join(app, 'dist/server'))) {
    const source = await readFile(file, 'utf8');
    if (!source.includes('new ConnectionWorker(')) continue;
    for (const match of source.matchAll(/\bmodule: '(\w+)'/g)) if (match[1]) names.add(match[1]);
  }
  return [...names].sort().map((name) => join(threads, `${name}.js`));
}

/**
 * The other threads' modules: `startThread(import.meta.url, '<module>', …)` (threads/startThread.ts)
 * starts `./<module>.js` beside the module that calls it. Read from the package, as above.
 */
async function namedThreadScripts(): Promise<string[]> {
  const scripts = new Set<string>();
  for (const file of await filesUnder(join(app, 'dist/server'))) {
    const source = await readFile(file, 'utf8');
    for (const match of source.matchAll(/\bstartThread\(import\.meta\.url, '(\w+)'/g)) {
      if (match[1]) scripts.add(join(dirname(file), `${match[1]}.js`));
    }
  }
  return [...scripts].sort();
}

describe('the installed app (electron-builder --linux dir)', () => {
  it('holds every dependency of package.json in app.asar', async () => {
    const manifest = JSON.parse(await readFile(join(app, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const missing: string[] = [];
    for (const name of Object.keys(manifest.dependencies)) {
      const found = await readFile(join(app, 'node_modules', name, 'package.json'), 'utf8').catch(
        () => undefined,
      );
      if (found === undefined) missing.push(name);
    }
    expect(missing).toEqual([]);
  });

  it('finds, inside the package, everything the shell, the core and its threads import', async () => {
    const threads = [...(await threadScripts()), ...(await namedThreadScripts())];
    expect(threads.map((file) => relative(app, file))).toEqual(
      expect.arrayContaining([
        'dist/server/store/sqlite/checkpointWorker.js',
        'dist/server/store/sqlite/pageReaderWorker.js',
        'dist/server/services/patterns/patternThread.js',
      ]),
    );
    const walk = walkPackagedImports(app, [
      join(app, 'dist/electron/main.js'),
      // utilityProcess.fork's module and the window's preload (main.ts).
      join(app, 'dist/electron/coreProcess.js'),
      join(app, 'dist/electron/preload.cjs'),
      join(app, 'dist/server/cli/main.js'),
      ...threads,
    ]);
    expect(walk.missingEntries).toEqual([]);
    expect(walk.unresolved).toEqual([]);
    expect(walk.outside).toEqual([]);
    expect(walk.packages).toEqual(expect.arrayContaining(['@photostructure/sqlite', 'koa', 'serialport']));
  });

  it('keeps every native file out of the archive, each one Node-API or built for this Electron', async () => {
    const abi = (await readFile(require.resolve('electron/abi_version'), 'utf8')).trim();
    const natives = (await filesUnder(app)).filter((file) => file.endsWith('.node'));
    expect(natives.length).toBeGreaterThan(0);
    const refused: string[] = [];
    for (const file of natives) {
      const path = relative(app, file);
      // asarUnpack's copy: a .node inside the archive would have to be extracted to a temp file.
      const binary = await readFile(join(resources, 'app.asar.unpacked', path)).catch(() => undefined);
      if (binary === undefined) {
        refused.push(`${path}: packed inside app.asar`);
        continue;
      }
      // The symbols are plain text in ELF, Mach-O and PE files alike. A Node-API addon registers
      // with napi_register_module_v1 (or napi_module_register); a V8-ABI one exports
      // node_register_module_v<ABI>, which must then be Electron's.
      const napi = binary.includes('napi_register_module_v1') || binary.includes('napi_module_register');
      const v8Abi = binary.includes('node_register_module_v');
      if (!(napi && !v8Abi) && !binary.includes(`node_register_module_v${abi}`)) {
        refused.push(`${path}: neither Node-API nor built for ABI ${abi}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it("carries only its own OS's native prebuilds", async () => {
    for (const nativePackage of ['@photostructure/sqlite', '@serialport/bindings-cpp']) {
      const targets = await readdir(
        join(resources, 'app.asar.unpacked', 'node_modules', nativePackage, 'prebuilds'),
      );
      expect(targets).toContain('linux-x64');
      expect({ nativePackage, others: targets.filter((target) => !target.startsWith('linux-')) }).toEqual({
        nativePackage,
        others: [],
      });
    }
  });

  it('flips the Electron fuses electron-builder.yml asks for', async () => {
    const binary = await readFile(executable);
    const sentinel = binary.indexOf(fuseSentinel);
    expect(sentinel).toBeGreaterThan(-1);
    const wire = sentinel + fuseSentinel.length + 2;
    // runAsNode off, cookie encryption on, NODE_OPTIONS off, --inspect off, asar integrity on,
    // app only from app.asar, V8 snapshot as Electron ships it, file: privileges off.
    expect(binary.subarray(wire, wire + defaultFuses.length).toString()).toBe('01001100');
  });

  it('runs the core from the package: it starts, the simulated modem sends a POSTed SMS, and GET /messages lists it', async () => {
    const credentials = Buffer.from('packaging:packaging-secret-1').toString('base64');
    const headers = { authorization: `Basic ${credentials}`, 'content-type': 'application/json' };
    const core = start(
      process.execPath,
      [
        join(app, 'dist/server/cli/main.js'),
        '--listen',
        '127.0.0.1:0',
        '--data-dir',
        join(work, 'data'),
        '--simulate',
        '--no-probe',
        '--username',
        'packaging',
        '--password',
        'packaging-secret-1',
      ],
      work,
      Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SMSGW_'))),
    );
    try {
      const baseUrl = await vi.waitFor(
        () => {
          const url = /is running at (http:\/\/\S+)/.exec(core.output())?.[1];
          if (url === undefined) throw new Error('the core does not listen yet');
          return url;
        },
        { timeout: 30_000, interval: 100 },
      );
      const posted = await fetch(`${baseUrl}/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ textMessage: { text: 'from the package' }, phoneNumbers: ['+15551234567'] }),
      });
      expect(posted.status).toBe(202);
      const { id } = (await posted.json()) as { id: string };

      await expect
        .poll(
          async () => {
            const message = await fetch(`${baseUrl}/messages/${id}`, { headers });
            return ((await message.json()) as { state: string }).state;
          },
          { timeout: 30_000, interval: 200 },
        )
        .toMatch(/^(Sent|Delivered)$/);

      const listed = await fetch(`${baseUrl}/messages`, { headers });
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as { id: string }[]).map((message) => message.id)).toContain(id);
    } catch (error) {
      throw new Error(`${String(error)}\ncore output:\n${core.output()}`, { cause: error });
    } finally {
      core.child.kill('SIGTERM');
    }
    expect({ code: await core.exited, output: core.output() }).toMatchObject({ code: 0 });
  }, 90_000);

  it('starts each SQLite thread from the package, connected to a database', async () => {
    const database = join(work, 'threads.db');
    new DatabaseSync(database).close();
    for (const script of await threadScripts()) {
      // Plain Node, no loader hooks of the test runner: the thread loads as the core starts it.
      const worker = new Worker(script, { workerData: { path: database }, execArgv: [] });
      const failures: unknown[] = [];
      worker.on('error', (error) => failures.push(error));
      await once(worker, 'online');
      worker.postMessage({ kind: 'close' } satisfies ConnectionRequest<never>);
      const [code] = await once(worker, 'exit');
      expect({ script: relative(app, script), code, failures }).toEqual({
        script: relative(app, script),
        code: 0,
        failures: [],
      });
    }
  });

  it('starts the pattern thread from the package, and it runs a pattern', async () => {
    const script = (await namedThreadScripts()).find((file) => file.endsWith('/patternThread.js'));
    if (!script) throw new Error('no pattern thread in the package');
    const workerData: PatternThreadData = { progress: new SharedArrayBuffer(8) };
    const worker = new Worker(script, { workerData, execArgv: [] });
    const replies: PatternReply[] = [];
    worker.on('message', (reply: PatternReply) => replies.push(reply));
    try {
      await vi.waitFor(() => expect(replies).toEqual([{ kind: 'ready' }]), { timeout: 10_000 });
      const request: PatternRequest = {
        id: 1,
        patterns: [{ source: 'balance is ([\\d.]+)', flags: '' }],
        text: 'Your balance is 12.50',
        sentAt: Date.now(),
      };
      worker.postMessage(request);
      await vi.waitFor(() => expect(replies).toHaveLength(2), { timeout: 10_000 });
      expect(replies[1]).toEqual({
        kind: 'result',
        id: 1,
        index: 0,
        result: { groups: ['balance is 12.50', '12.50'] },
      });
    } finally {
      await worker.terminate();
    }
  });
});
