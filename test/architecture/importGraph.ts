import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

/** One import or export-from statement (type-only ones included), or a dynamic `import()`. */
export interface ImportEdge {
  /** The specifier as written: `../at/atSession.js`, `node:fs`, `zod`. */
  specifier: string;
  /** The repository-relative file it resolves to; undefined for packages and Node builtins. */
  target?: string;
}

export interface ModuleFacts {
  /** Repository-relative path with forward slashes, e.g. `server/devices/at/atSession.ts`. */
  file: string;
  imports: ImportEdge[];
  /** The Node-only globals (`nodeGlobals`) the code names, not counting comments and strings. */
  nodeGlobals: NodeGlobal[];
}

export type ImportGraph = Map<string, ModuleFacts>;

/** Globals a browser does not have: Node's byte array and its process object (env, platform, stdio). */
export const NodeGlobals = ['Buffer', 'process'] as const;
export type NodeGlobal = (typeof NodeGlobals)[number];

const sourceSuffixes = ['.ts', '.tsx', '.cts', '.mts'];

/** Reads every TypeScript module under the given repository-relative folders. */
export function readImportGraph(repoRoot: string, folders: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const folder of folders) {
    for (const absolute of listSourceFiles(path.join(repoRoot, folder))) {
      const file = toRepoPath(repoRoot, absolute);
      graph.set(file, readModule(repoRoot, file));
    }
  }
  return graph;
}

/** A Node builtin, written with or without the `node:` scheme. */
export function isNodeBuiltin(specifier: string): boolean {
  if (specifier.startsWith('node:')) return true;
  return builtinModules.includes(specifier.split('/')[0] ?? specifier);
}

/** `electron`, `electron/main`, … but not `electron-builder`. */
export function isPackage(specifier: string, name: string): boolean {
  return specifier === name || specifier.startsWith(`${name}/`);
}

function listSourceFiles(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const absolute = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') found.push(...listSourceFiles(absolute));
    } else if (
      sourceSuffixes.some((suffix) => entry.name.endsWith(suffix)) &&
      !entry.name.endsWith('.d.ts')
    ) {
      found.push(absolute);
    }
  }
  return found.sort();
}

function readModule(repoRoot: string, file: string): ModuleFacts {
  const absolute = path.join(repoRoot, file);
  const source = ts.createSourceFile(absolute, readFileSync(absolute, 'utf8'), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const nodeGlobals = new Set<NodeGlobal>();

  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      specifiers.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      // `import('../x.js').Type` in a type position depends on the module as much as `import type`.
      specifiers.push(node.argument.literal.text);
    } else if (ts.isIdentifier(node) && isNodeGlobal(node.text) && namesTheGlobal(node)) {
      nodeGlobals.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);

  const imports = specifiers.map((specifier) => ({
    specifier,
    target: resolveRelative(repoRoot, file, specifier),
  }));
  return { file, imports, nodeGlobals: [...nodeGlobals].sort() };
}

function isNodeGlobal(name: string): name is NodeGlobal {
  return (NodeGlobals as readonly string[]).includes(name);
}

/** `Buffer.from(…)`, `: Buffer`, `process.env`, but not `x.Buffer` or `{ process: 1 }`. */
function namesTheGlobal(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return false;
  if (ts.isPropertySignature(parent) && parent.name === node) return false;
  if (ts.isQualifiedName(parent) && parent.right === node) return false;
  return true;
}

/** Resolves `./x.js` the way `moduleResolution: NodeNext`/`Bundler` finds our TypeScript files. */
function resolveRelative(repoRoot: string, fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(repoRoot, path.dirname(fromFile), specifier);
  const stem = base.replace(/\.(c|m)?jsx?$/, '');
  const candidates = [
    ...sourceSuffixes.map((suffix) => stem + suffix),
    base,
    ...sourceSuffixes.map((suffix) => path.join(base, `index${suffix}`)),
  ];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  if (!found) throw new Error(`${fromFile}: cannot resolve '${specifier}'`);
  return toRepoPath(repoRoot, found);
}

function toRepoPath(repoRoot: string, absolute: string): string {
  return path.relative(repoRoot, absolute).split(path.sep).join('/');
}
