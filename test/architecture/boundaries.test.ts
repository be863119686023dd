import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ImportGraph, isNodeBuiltin, isPackage, readImportGraph } from './importGraph.js';

/**
 * The layers of server/ as ARCHITECTURE.md draws them, top to bottom. Each may import only its
 * own and those below it: the ways in reach the services, the services the devices, all of
 * them the store and the contract, never the other way round. Start-up (`index.ts`, `cli/`,
 * `composition/`, `config/`) builds everything and sits on top.
 */
const layers = [
  ['index.ts', 'cli', 'composition', 'config'],
  ['doors'],
  ['services'],
  ['devices'],
  ['store'],
  ['logging'],
  ['contract'],
  ['errors', 'clock', 'threads'],
] as const;
/**
 * The byte layers among the device kinds, top to bottom: each may import only itself, those below
 * it, the contract (which holds the PDU codec) and the foundations.
 */
const wireRooms = ['devices/at', 'devices/transport'] as const;
/** Imported by every layer above the contract. */
const foundations = ['logging', 'errors', 'clock', 'threads'] as const;
/**
 * What the UI and the server share, and all the UI may import of the server: the record types,
 * names and pure rules of `domain/`, the API's shapes in `schemas/`, and the PDU codec that
 * counts a text's parts as the modem will send them.
 */
const contract = 'contract';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const graph = readImportGraph(repoRoot, ['server', 'renderer/src', 'electron']);

/** `server/devices/at/atSession.ts` → `devices`; `server/index.ts` → `index.ts`; outside server/ → undefined. */
function serverFolder(file: string): string | undefined {
  const [top, folder] = file.split('/');
  return top === 'server' ? folder : undefined;
}

/**
 * The room a file stands in: `server/devices/at/atSession.ts` → `devices/at` (a folder inside a
 * layer's folder), `server/clock/clock.ts` → `clock`.
 */
function serverRoom(file: string): string | undefined {
  const folder = serverFolder(file);
  if (folder === undefined) return undefined;
  const [, , inner, rest] = file.split('/');
  const grouped = ['doors', 'services', 'devices', 'contract'].includes(folder);
  return grouped && inner !== undefined && rest !== undefined ? `${folder}/${inner}` : folder;
}

function layerOf(folder: string): number {
  return layers.findIndex((layer) => (layer as readonly string[]).includes(folder));
}

function filesIn(prefix: string): string[] {
  return [...graph.keys()].filter((file) => file.startsWith(prefix));
}

function chain(files: readonly string[]): string {
  return files.join('\n    → ');
}

describe('the import graph', () => {
  it('has no server module importing electron', () => {
    const offenders = filesIn('server/').flatMap((file) =>
      (graph.get(file)?.imports ?? [])
        .filter((edge) => isPackage(edge.specifier, 'electron'))
        .map((edge) => `${file} imports '${edge.specifier}'`),
    );
    expect(offenders).toEqual([]);
  });

  it('has every folder of server/ in a layer', () => {
    const folders = new Set(filesIn('server/').map((file) => serverFolder(file) ?? ''));
    expect([...folders].filter((folder) => layerOf(folder) < 0)).toEqual([]);
    expect([...folders].sort()).toEqual(layers.flat().sort());
  });

  it('has each layer importing only itself and the layers below it', () => {
    const offenders = filesIn('server/').flatMap((file) => {
      const from = layerOf(serverFolder(file) ?? '');
      return (graph.get(file)?.imports ?? [])
        .filter(
          (edge) => edge.target?.startsWith('server/') && layerOf(serverFolder(edge.target) ?? '') < from,
        )
        .map((edge) => chain([file, edge.target ?? '']));
    });
    expect(offenders).toEqual([]);
  });

  it('has the wire layers (devices/at, devices/transport) importing nothing above them', () => {
    const offenders: string[] = [];
    wireRooms.forEach((room, rank) => {
      const allowed = new Set<string>([...wireRooms.slice(rank)]);
      for (const file of filesIn(`server/${room}/`)) {
        for (const edge of graph.get(file)?.imports ?? []) {
          const target = edge.target && serverRoom(edge.target);
          const below =
            target === undefined || layerOf(serverFolder(edge.target ?? '') ?? '') > layerOf('devices');
          if (!below && !allowed.has(target)) offenders.push(chain([file, edge.target ?? '']));
        }
      }
    });
    expect(filesIn('server/devices/at/')).toContain('server/devices/at/atSession.ts');
    expect(offenders).toEqual([]);
  });

  it('has the device pool importing no device kind, only the wire layers, the contract and the foundations', () => {
    const allowed = new Set<string>(['devices/pool', ...wireRooms]);
    const files = filesIn('server/devices/pool/');
    const offenders = files.flatMap((file) =>
      (graph.get(file)?.imports ?? [])
        .filter((edge) => {
          if (!edge.target?.startsWith('server/')) return false;
          const folder = serverFolder(edge.target) ?? '';
          return (
            !(folder === contract || (foundations as readonly string[]).includes(folder)) &&
            !allowed.has(serverRoom(edge.target) ?? '')
          );
        })
        .map((edge) => chain([file, edge.target ?? ''])),
    );
    expect(files).toContain('server/devices/pool/modemPool.ts');
    expect(offenders).toEqual([]);
  });

  it('has the UI importing nothing of the server but the contract', () => {
    const offenders = filesIn('renderer/src/').flatMap((file) =>
      (graph.get(file)?.imports ?? [])
        .filter((edge) => edge.target?.startsWith('server/') && serverFolder(edge.target) !== contract)
        .map((edge) => chain([file, edge.target ?? ''])),
    );
    expect(offenders).toEqual([]);
  });

  it('has no Node API (node: import, Node builtin, Buffer or process) in any module the UI imports', () => {
    const offenders = modulesReachedFrom(graph, filesIn('renderer/src/')).flatMap(({ file, via }) => {
      const facts = graph.get(file);
      const problems = (facts?.imports ?? [])
        .filter((edge) => isNodeBuiltin(edge.specifier))
        .map((edge) => `imports '${edge.specifier}'`);
      for (const global of facts?.nodeGlobals ?? []) problems.push(`uses ${global}`);
      return problems.map((problem) => `${chain(via)} ${problem}`);
    });
    expect(offenders).toEqual([]);
  });

  it('has no cycle between the rooms of server/', () => {
    expect(folderCycles(graph)).toEqual([]);
  });
});

/** Every module reachable from the roots, each with the shortest import chain that reaches it. */
function modulesReachedFrom(graph: ImportGraph, roots: readonly string[]): { file: string; via: string[] }[] {
  const via = new Map<string, string[]>(roots.map((root) => [root, [root]]));
  const queue = [...roots];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const edge of graph.get(file)?.imports ?? []) {
      if (edge.target && !via.has(edge.target)) {
        via.set(edge.target, [...(via.get(file) ?? []), edge.target]);
        queue.push(edge.target);
      }
    }
  }
  return [...via].map(([file, chainTo]) => ({ file, via: chainTo }));
}

/**
 * One message per group of server rooms that import each other in a circle (a strongly connected
 * component of the room graph), naming the folders and one circle through them file by file.
 */
function folderCycles(graph: ImportGraph): string[] {
  // folder → folder → one file-level import that makes the edge
  const edges = new Map<string, Map<string, [string, string]>>();
  for (const [file, facts] of graph) {
    const from = serverRoom(file);
    if (from === undefined) continue;
    for (const edge of facts.imports) {
      const to = edge.target && serverRoom(edge.target);
      if (!to || to === from || !edge.target) continue;
      const out = edges.get(from) ?? new Map<string, [string, string]>();
      if (!out.has(to)) out.set(to, [file, edge.target]);
      edges.set(from, out);
    }
  }
  return stronglyConnected([...edges.keys()].sort(), (folder) =>
    [...(edges.get(folder)?.keys() ?? [])].sort(),
  )
    .filter((component) => component.length > 1)
    .map((component) => {
      const circle = shortestCircle(component, (folder) => [...(edges.get(folder)?.keys() ?? [])]);
      const steps = circle.map((from, index) => {
        const to = circle[(index + 1) % circle.length] ?? from;
        const [file, target] = edges.get(from)?.get(to) ?? ['?', '?'];
        return `${from} → ${to}: ${file} imports ${target}`;
      });
      return `folders ${component.sort().join(', ')} import each other, e.g.\n  ${steps.join('\n  ')}`;
    });
}

/** Tarjan's algorithm; components in discovery order. */
function stronglyConnected(nodes: readonly string[], next: (node: string) => string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const successor of next(node)) {
      if (!index.has(successor)) {
        visit(successor);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(successor) ?? 0));
      } else if (onStack.has(successor)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(successor) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return components;
}

/** The shortest circle through the component's first folder (alphabetically), found breadth-first. */
function shortestCircle(component: readonly string[], next: (node: string) => string[]): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0] ?? '';
  const parent = new Map<string, string>();
  const queue = [start];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const successor of next(node)) {
      if (!members.has(successor)) continue;
      if (successor === start) {
        const circle = [node];
        for (let step = parent.get(node); step !== undefined; step = parent.get(step)) circle.unshift(step);
        return circle;
      }
      if (!parent.has(successor) && successor !== start) {
        parent.set(successor, node);
        queue.push(successor);
      }
    }
  }
  return [start];
}
