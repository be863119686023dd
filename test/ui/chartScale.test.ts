import { describe, expect, it } from 'vitest';
import { chartScale, niceStep } from '../../renderer/src/format/chartScale.js';

describe('the daily chart scale', () => {
  it.each([
    [0.3, 1],
    [1, 1],
    [1.5, 2],
    [2.2, 5],
    [7, 10],
    [12, 20],
    [23, 25],
    [260, 500],
  ])('rounds a raw step of %d up to %d', (raw, nice) => {
    expect(niceStep(raw)).toBe(nice);
  });

  it('puts the top grid line on a round number above the peak', () => {
    const scale = chartScale([3, 17, 9]);
    expect(scale.max).toBe(20);
    expect(scale.ticks).toEqual([0, 5, 10, 15, 20]);
  });

  it('draws an all-zero fortnight with a 0–1 axis instead of dividing by zero', () => {
    const scale = chartScale([0, 0, 0]);
    expect(scale.max).toBe(1);
    expect(scale.heightOf(0, 200)).toBe(0);
  });

  it('keeps whole-number grid lines for small counts', () => {
    expect(chartScale([2]).ticks).toEqual([0, 1, 2]);
  });

  it('maps values to pixel heights in proportion and clamps outliers', () => {
    const scale = chartScale([40]);
    expect(scale.heightOf(20, 200)).toBe(100);
    expect(scale.heightOf(-5, 200)).toBe(0);
    expect(scale.heightOf(1000, 200)).toBe(200);
  });
});
