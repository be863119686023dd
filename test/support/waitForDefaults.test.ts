import { expect, it, vi } from 'vitest';

it('gives vi.waitFor the suite-wide 10 s instead of its own 1 s', async () => {
  const start = Date.now();
  await vi.waitFor(() => expect(Date.now() - start).toBeGreaterThan(1_500));
});
