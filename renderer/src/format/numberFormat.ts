/** Counts with thousands separators in the browser's language ("12,345"; "12 345" in French). */
const counts = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

export function formatNumber(value: number): string {
  return counts.format(value);
}
