// Follows what a packaged app's entry files import, resolved the way Node resolves it at run time,
// and prints as JSON what it reached and what it could not find inside the app:
//
//   node --experimental-import-meta-resolve scripts/packagedImports.mjs <app dir> <entry file>...
//
// The flag lets `import.meta.resolve` take the importing file as its parent, so ESM imports go
// through Node's own resolver (package "exports" and their conditions included) instead of a
// copy of it. Static and dynamic `import`, `export … from` and `require()` with a string literal
// are followed; Node's built-in modules and `electron` (Electron provides it) are not files. A
// package that is missing but declared optional by its importer (`optionalDependencies`, or
// `peerDependenciesMeta` optional: debug's `supports-color`, required inside a try) is listed
// apart from the imports that do not resolve.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const providedByElectron = (specifier) => specifier === 'electron' || specifier.startsWith('electron/');

/** ESM or CommonJS, as Node decides for a file: its extension, else its package's `type`. */
function isModule(file, root) {
  const extension = extname(file);
  if (extension === '.mjs') return true;
  if (extension === '.cjs') return false;
  for (let dir = dirname(file); dir.startsWith(root); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type === 'module';
    if (dir === root) break;
  }
  return false;
}

function importedBy(file) {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((item) => item.fileName);
}

function viaImport(specifier, from) {
  const url = import.meta.resolve(specifier, pathToFileURL(from).href);
  // The URL of a relative import is given whether or not its file exists.
  const path = url.startsWith('file:') ? fileURLToPath(url) : undefined;
  return path !== undefined && existsSync(path) ? path : undefined;
}

function viaRequire(specifier, from) {
  return createRequire(from).resolve(specifier);
}

/**
 * Where `specifier` leads from `from`, or undefined. A file's own module system is tried first;
 * the other covers `require` made with createRequire in ESM and `import()` in CommonJS.
 */
function resolveImport(specifier, from, root) {
  const attempts = isModule(from, root) ? [viaImport, viaRequire] : [viaRequire, viaImport];
  for (const attempt of attempts) {
    try {
      const target = attempt(specifier, from);
      if (target !== undefined) return target;
    } catch {
      // Not found this way; the other may find it.
    }
  }
  return undefined;
}

/** The nearest package.json above `file` that names a package: the package the file belongs to. */
function manifestOf(file, root) {
  for (let dir = dirname(file); dir.startsWith(root); dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) {
      const manifest = JSON.parse(readFileSync(path, 'utf8'));
      if (typeof manifest.name === 'string') return manifest;
    }
    if (dir === root) break;
  }
  return {};
}

function declaredOptional(specifier, from, root) {
  const [first = '', second = ''] = specifier.split('/');
  const name = first.startsWith('@') ? `${first}/${second}` : first;
  const manifest = manifestOf(from, root);
  return Boolean(manifest.optionalDependencies?.[name] ?? manifest.peerDependenciesMeta?.[name]?.optional);
}

function packageOf(file) {
  const parts = file.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at === -1) return undefined;
  const name = parts[at + 1] ?? '';
  return name.startsWith('@') ? `${name}/${parts[at + 2]}` : name;
}

function walkImports(root, entries) {
  const seen = new Set();
  const queue = [...entries];
  const packages = new Set();
  const unresolved = [];
  const optional = [];
  const outside = [];
  const missingEntries = entries.filter((entry) => !existsSync(entry)).map((entry) => relative(root, entry));
  while (queue.length > 0) {
    const file = queue.pop();
    if (file === undefined || seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const name = packageOf(file);
    if (name !== undefined) packages.add(name);
    if (!['.js', '.mjs', '.cjs'].includes(extname(file))) continue;
    for (const specifier of importedBy(file)) {
      if (isBuiltin(specifier) || providedByElectron(specifier)) continue;
      const target = resolveImport(specifier, file, root);
      const found = { from: relative(root, file), specifier };
      if (target === undefined) (declaredOptional(specifier, file, root) ? optional : unresolved).push(found);
      else if (!target.startsWith(root + sep)) outside.push({ ...found, target });
      else queue.push(target);
    }
  }
  return { files: seen.size, packages: [...packages].sort(), missingEntries, unresolved, optional, outside };
}

const [root, ...entries] = process.argv.slice(2).map((path) => resolve(path));
if (root === undefined || entries.length === 0) {
  process.stderr.write('usage: packagedImports.mjs <app dir> <entry file>...\n');
  process.exit(2);
}
process.stdout.write(`${JSON.stringify(walkImports(root, entries))}\n`);
