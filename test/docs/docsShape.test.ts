import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The documents stay what they are for: a README a newcomer reads to the end, a map of the code, a
 * page of current figures; and every citation in the code leads to a document in this repository.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const lineCount = (file: string) => read(file).trimEnd().split('\n').length;

const sourceFolders = ['server', 'renderer', 'electron', 'test', 'bench', 'scripts'];
const sourceExtensions = /\.(ts|tsx|mjs|js)$/;

function sourceFiles(): string[] {
  return sourceFolders.flatMap((folder) =>
    readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => sourceExtensions.test(file) && !file.split(path.sep).includes('node_modules'))
      .map((file) => path.join(folder, file)),
  );
}

/** Where each of `pattern`'s matches is, as "file:line: text"; in comment lines only, if asked. */
function occurrences(pattern: RegExp, where: 'any line' | 'comments' = 'any line'): string[] {
  const comment = /^\s*(\/\/|\/\*|\*)/;
  return sourceFiles().flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, index) =>
        pattern.test(line) && (where === 'any line' || comment.test(line))
          ? [`${file}:${index + 1}: ${line.trim()}`]
          : [],
      ),
  );
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const headings = read(file)
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.replace(/^#+ /, ''));
  return new Set(headings.map(anchorOf));
}

const markdownFiles = [
  'README.md',
  'ARCHITECTURE.md',
  'BENCHMARKS.md',
  'RELIABILITY.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];

describe('the documents', () => {
  it('keep the README a front door, the architecture a map and the benchmarks one page', () => {
    expect(lineCount('README.md')).toBeLessThanOrEqual(200);
    expect(lineCount('ARCHITECTURE.md')).toBeLessThanOrEqual(250);
    expect(lineCount('BENCHMARKS.md')).toBeLessThanOrEqual(200);
  });

  it('start the README with the two commands a newcomer runs', () => {
    const beforeFirstSection = read('README.md').split('\n## ')[0] ?? '';
    expect(beforeFirstSection).toContain('npm install && npm start');
    expect(beforeFirstSection).toContain('npm install && npm test');
  });

  it('link only to files and headings that exist', () => {
    const links = markdownFiles.flatMap((file) =>
      [...read(file).matchAll(/\]\(([^)\s]+)\)/g)].map(([, target = '']) => ({ file, target })),
    );
    expect(links.length).toBeGreaterThan(20);
    const broken = links.flatMap(({ file, target }) => {
      if (/^[a-z]+:/.test(target)) return [];
      const [linked = '', anchor] = target.split('#');
      const targetFile = linked === '' ? file : path.posix.join(path.posix.dirname(file), linked);
      let anchors: Set<string>;
      try {
        anchors = anchorsOf(targetFile);
      } catch {
        return [`${file}: ${target} (no such file)`];
      }
      return anchor === undefined || anchors.has(anchor) ? [] : [`${file}: ${target} (no such heading)`];
    });
    expect(broken).toEqual([]);
  });
});

describe('comments in the code', () => {
  it('cite no design note outside the repository', () => {
    // Written so that this file does not match itself.
    expect(occurrences(new RegExp(`DESIGN(\\.md)? §|/work/${'shared'}`))).toEqual([]);
    // A folder named shared/ may exist in the code; a comment citing one above the repository may not.
    expect(occurrences(/\.\.\/shared\//, 'comments')).toEqual([]);
  });

  it('point into docs/decisions.md only at headings it has', () => {
    const decisions = anchorsOf('docs/decisions.md');
    const cited = occurrences(/docs\/decisions\.md#/).flatMap((where) =>
      [...where.matchAll(/docs\/decisions\.md#([a-z0-9-]+)/g)].map(([, anchor = '']) => ({ where, anchor })),
    );
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter(({ anchor }) => !decisions.has(anchor)).map(({ where }) => where)).toEqual([]);
  });
});
