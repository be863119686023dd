/**
 * Axis scaling for the dashboard's 14-day chart: a "nice" top value (1, 2, 2.5, 5 × 10ⁿ) so
 * grid lines fall on round numbers, and the pixel height of a value.
 */

export interface ChartScale {
  max: number;
  ticks: number[];
  /** Pixel height of `value` in a plot `height` px tall (0 at the baseline). */
  heightOf(value: number, height: number): number;
}

/** Step between grid lines: 1, 2, 5 × 10ⁿ (2.5 × 10ⁿ from 10 up, where it is a whole number). */
export function niceStep(rawStep: number): number {
  if (!(rawStep > 1)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(rawStep));
  // Message counts are whole numbers: a grid line at 2.5 messages would read as nonsense.
  const factors = magnitude >= 10 ? [1, 2, 2.5, 5, 10] : [1, 2, 5, 10];
  const factor = factors.find((candidate) => candidate * magnitude >= rawStep) ?? 10;
  return factor * magnitude;
}

export function chartScale(values: readonly number[], tickCount = 4): ChartScale {
  const peak = Math.max(0, ...values.filter((value) => Number.isFinite(value)));
  const step = niceStep(peak / tickCount);
  const max = Math.max(step, Math.ceil(peak / step) * step);
  const ticks: number[] = [];
  for (let tick = 0; tick <= max + 1e-9; tick += step) ticks.push(tick);
  return {
    max,
    ticks,
    heightOf: (value, height) => (Math.max(0, Math.min(value, max)) / max) * height,
  };
}
