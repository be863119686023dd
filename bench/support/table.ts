/** Plain-text tables for the terminal (and for pasting into BENCHMARKS.md as Markdown). */
export interface Table {
  title: string;
  headers: string[];
  rows: string[][];
  /** Lines printed under the table: what was measured, skipped workloads and why. */
  notes?: string[];
}

export function formatTable(table: Table): string {
  const widths = table.headers.map((header, column) =>
    Math.max(header.length, ...table.rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${widths.map((width, column) => (cells[column] ?? '').padEnd(width)).join(' | ')} |`;
  return [
    `### ${table.title}`,
    '',
    line(table.headers),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...table.rows.map(line),
    ...(table.notes && table.notes.length > 0 ? ['', ...table.notes] : []),
    '',
  ].join('\n');
}

export function fixed(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

export function mebibytes(bytes: number): string {
  return `${fixed(bytes / 2 ** 20, 0)} MB`;
}
