import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ImportGraph, isNodeBuiltin, isPackage, readImportGraph } from './importGraph.js';

// The layers as ARCHITECTURE.md draws the data flow. Only the wire layers are held to "nothing
// from above": the layers over them call each other sideways by design (the scheduler asks the
// modem pool, the modem driver hands to the inbox), which the folder-cycle rule keeps acyclic.
/** The byte and codec layers, top to bottom: each may import only itself, those below it and the foundations. */
const wireLayers = ['at', 'transport', 'pdu'] as const;
/** Imported by every layer; they import only each other. `domain/` holds the shared record types. */
const foundations = ['domain', 'errors', 'logging', 'clock'] as const;
/**
 * The pool and directory of every device kind, with the capability and sink types each kind
 * implements: below the kinds (`modem/`, `hilink/`, `phone/`, `simulator/`), above the wire.
 */
const deviceLayer = 'devices';
/**
 * The API's request and response shapes, which the UI imports too: they may draw on lists from
 * other folders (scopes, log levels, delivery states), but on no module that reaches past its own
 * folder and the foundations, so no service, store or route comes along.
 */
const schemaLayer = 'schemas';
/**
 * What the UI and the server share, and all the UI may import of the server: the record types,
 * names and pure rules of `domain/`, the API's shapes in `schemas/`, and the PDU codec that
 * counts a text's parts as the modem will send them.
 */
const contract = ['domain', 'schemas', 'pdu'] as const;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const graph = readImportGraph(repoRoot, ['server', 'renderer/src', 'electron']);

/** `server/at/atSession.ts` → `at`; `server/index.ts` → `index.ts`; outside server/ → undefined. */
function serverFolder(file: string): string | undefined {
  const [top, folder] = file.split('/');
  return top === 'server' ? folder : undefined;
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

  it('has the wire layers (at, transport, pdu) importing nothing above them', () => {
    const offenders: string[] = [];
    wireLayers.forEach((layer, rank) => {
      const allowed = new Set<string>([...wireLayers.slice(rank), ...foundations]);
      for (const file of filesIn(`server/${layer}/`)) {
        for (const edge of graph.get(file)?.imports ?? []) {
          const folder = edge.target && serverFolder(edge.target);
          if (folder !== undefined && !allowed.has(folder)) offenders.push(chain([file, edge.target ?? '']));
        }
      }
    });
    expect(offenders).toEqual([]);
  });

  it('has the device pool (devices) importing only itself, the wire layers and the foundations', () => {
    const allowed = new Set<string>([deviceLayer, ...wireLayers, ...foundations]);
    const files = filesIn(`server/${deviceLayer}/`);
    const offenders = files.flatMap((file) =>
      (graph.get(file)?.imports ?? [])
        .filter((edge) => edge.target !== undefined && !allowed.has(serverFolder(edge.target) ?? ''))
        .map((edge) => chain([file, edge.target ?? ''])),
    );
    expect(files).toContain('server/devices/modemPool.ts');
    expect(offenders).toEqual([]);
  });

  it('has the API schemas (schemas) reaching only themselves, the foundations and lists', () => {
    const files = filesIn(`server/${schemaLayer}/`);
    const ownOrFoundation = (from: string, to: string | undefined) =>
      to === undefined || to === from || (foundations as readonly string[]).includes(to);
    // A list: a module that leaves its own folder only for the foundations.
    const offenders = modulesReachedFrom(graph, files).flatMap(({ file, via }) => {
      const folder = serverFolder(file);
      if (folder === undefined || folder === schemaLayer) return [];
      return (graph.get(file)?.imports ?? [])
        .filter((edge) => !ownOrFoundation(folder, edge.target && serverFolder(edge.target)))
        .map((edge) => chain([...via, edge.target ?? '']));
    });
    expect(files).toContain('server/schemas/messageSchemas.ts');
    expect(offenders).toEqual([]);
  });

  it('has the foundations (domain, errors, logging, clock) importing only each other', () => {
    const allowed = new Set<string>(foundations);
    const offenders = foundations.flatMap((folder) =>
      filesIn(`server/${folder}/`).flatMap((file) =>
        (graph.get(file)?.imports ?? [])
          .filter((edge) => edge.target !== undefined && !allowed.has(serverFolder(edge.target) ?? ''))
          .map((edge) => chain([file, edge.target ?? ''])),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('has the UI importing nothing of the server but the contract (domain, schemas, pdu)', () => {
    const allowed = new Set<string>(contract);
    const offenders = filesIn('renderer/src/').flatMap((file) =>
      (graph.get(file)?.imports ?? [])
        .filter((edge) => edge.target?.startsWith('server/') && !allowed.has(serverFolder(edge.target) ?? ''))
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

  it('has no cycle between server folders', () => {
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
 * One message per group of server folders that import each other in a circle (a strongly connected
 * component of the folder graph), naming the folders and one circle through them file by file.
 */
function folderCycles(graph: ImportGraph): string[] {
  // folder → folder → one file-level import that makes the edge
  const edges = new Map<string, Map<string, [string, string]>>();
  for (const [file, facts] of graph) {
    const from = serverFolder(file);
    if (from === undefined) continue;
    for (const edge of facts.imports) {
      const to = edge.target && serverFolder(edge.target);
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
