import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walkPackagedImports } from './support/packagedImports.js';

let app: string;
beforeEach(async () => {
  app = await mkdtemp(join(tmpdir(), 'smsgw-imports-'));
});
afterEach(async () => {
  await rm(app, { recursive: true, force: true });
});

/** Writes `files` (path relative to the app → content) into the app directory. */
async function layout(files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(app, path)), { recursive: true });
    await writeFile(join(app, path), content);
  }
}

const esmApp = JSON.stringify({ name: 'app', type: 'module' });

describe('the packaged-imports walk', () => {
  it('follows static, dynamic and CommonJS imports into packages, through their ESM exports', async () => {
    await layout({
      'package.json': esmApp,
      'dist/main.js':
        "import { a } from './a.js';\nimport 'node:fs';\nimport 'electron';\nawait import('dual');",
      'dist/a.js': "export const a = 1;\nexport { b } from 'cjs-only';",
      'node_modules/dual/package.json': JSON.stringify({
        name: 'dual',
        exports: { import: './esm.mjs', require: './cjs.cjs' },
      }),
      'node_modules/dual/esm.mjs': "import 'from-esm';",
      'node_modules/dual/cjs.cjs': "require('from-cjs');",
      'node_modules/from-esm/package.json': JSON.stringify({ name: 'from-esm', main: 'index.js' }),
      'node_modules/from-esm/index.js': "require('fs');",
      'node_modules/cjs-only/package.json': JSON.stringify({ name: 'cjs-only', main: 'lib.js' }),
      'node_modules/cjs-only/lib.js': "exports.b = require('./util');",
      'node_modules/cjs-only/util.js': 'module.exports = 2;',
    });
    const walk = walkPackagedImports(app, [join(app, 'dist/main.js')]);
    expect(walk.packages).toEqual(['cjs-only', 'dual', 'from-esm']);
    expect(walk.files).toBe(6);
    expect(walk.unresolved).toEqual([]);
    expect(walk.outside).toEqual([]);
  });

  it('names an import its package lacks, and sets a declared optional one apart', async () => {
    await layout({
      'package.json': esmApp,
      'dist/main.js': "import 'gone';\nimport 'uses-optional';\nimport './missing.js';",
      'node_modules/uses-optional/package.json': JSON.stringify({
        name: 'uses-optional',
        peerDependenciesMeta: { 'supports-color': { optional: true } },
      }),
      'node_modules/uses-optional/index.js': "try { require('supports-color'); } catch {}",
    });
    const walk = walkPackagedImports(app, [join(app, 'dist/main.js'), join(app, 'dist/absent.js')]);
    expect(walk.unresolved).toEqual([
      { from: 'dist/main.js', specifier: 'gone' },
      { from: 'dist/main.js', specifier: './missing.js' },
    ]);
    expect(walk.optional).toEqual([
      { from: 'node_modules/uses-optional/index.js', specifier: 'supports-color' },
    ]);
    expect(walk.missingEntries).toEqual(['dist/absent.js']);
  });

  it('names an import that is found only outside the app directory', async () => {
    const outer = join(app, 'outer');
    await mkdir(outer);
    await layout({
      'node_modules/stray/package.json': JSON.stringify({ name: 'stray', main: 'index.js' }),
      'node_modules/stray/index.js': '',
      'outer/package.json': esmApp,
      'outer/main.js': "import 'stray';",
    });
    const walk = walkPackagedImports(outer, [join(outer, 'main.js')]);
    expect(walk.outside).toEqual([
      { from: 'main.js', specifier: 'stray', target: join(app, 'node_modules/stray/index.js') },
    ]);
  });
});
