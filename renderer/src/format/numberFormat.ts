/** Counts with thousands separators in the browser's language ("12,345"; "12 345" in French). */
const counts = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

export function formatNumber(value: number): string {
  return counts.format(value);
}

/** "1 SMS part", "3 SMS parts": a count with its noun, singular for one. */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}
