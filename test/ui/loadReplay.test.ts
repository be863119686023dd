import { describe, expect, it } from 'vitest';
import {
  applyLiveItem,
  type LivePage,
  type LiveRules,
  livePageOf,
} from '../../renderer/src/live/livePage.js';
import { LoadReplay } from '../../renderer/src/loadReplay.js';

interface Row {
  id: string;
  at: number;
}

const rules: LiveRules<Row> = { id: (row) => row.id, listedAt: (row) => row.at, matches: () => true };
/** What the Messages screen does with a live event (`usePagedLiveList.apply`). */
const liveEvent = (row: Row) => (page: LivePage<Row> | undefined) =>
  page && applyLiveItem(page, row, rules, true);
const pageOf = (...rows: Row[]) => livePageOf({ items: rows, total: rows.length });

describe('LoadReplay', () => {
  it('applies a live event that landed while the first page was read to that page', () => {
    const loads = new LoadReplay<LivePage<Row>>();
    const token = loads.start();
    // The event lands before the page: applied to "no page yet", it did nothing on its own.
    const event = liveEvent({ id: 'new', at: 30 });
    expect(event(undefined)).toBeUndefined();
    loads.changed(event);
    // The read was answered before the message existed.
    const answer = loads.finish(token, pageOf({ id: 'old', at: 20 }));
    expect(answer).toEqual({
      stale: false,
      data: { items: [{ id: 'old', at: 20 }], total: 2, arrivals: [{ id: 'new', at: 30 }] },
    });
  });

  it('does not count an event twice when the page read after it already lists it', () => {
    const loads = new LoadReplay<LivePage<Row>>();
    const token = loads.start();
    loads.changed(liveEvent({ id: 'new', at: 30 }));
    const answer = loads.finish(token, pageOf({ id: 'new', at: 30 }, { id: 'old', at: 20 }));
    expect(answer).toEqual({ stale: false, data: pageOf({ id: 'new', at: 30 }, { id: 'old', at: 20 }) });
  });

  it('replays nothing made before the load started, whose answer is newer than it', () => {
    const loads = new LoadReplay<LivePage<Row>>();
    loads.changed(liveEvent({ id: 'earlier', at: 40 }));
    const token = loads.start();
    expect(loads.finish(token, pageOf({ id: 'old', at: 20 }))).toEqual({
      stale: false,
      data: pageOf({ id: 'old', at: 20 }),
    });
  });

  it('drops the answer of a load that a newer one superseded, and replays only since the newer one', () => {
    const loads = new LoadReplay<number>();
    const first = loads.start();
    loads.changed((value) => (value ?? 0) + 1);
    const second = loads.start();
    loads.changed((value) => (value ?? 0) + 10);
    expect(loads.finish(first, 100)).toEqual({ stale: true });
    expect(loads.finish(second, 200)).toEqual({ stale: false, data: 210 });
    // Nothing is in flight any more: a change now is not kept for a later answer.
    loads.changed((value) => (value ?? 0) + 1000);
    expect(loads.finish(loads.start(), 300)).toEqual({ stale: false, data: 300 });
  });

  it('forgets the changes of a failed load, and tells whether it was the newest', () => {
    const loads = new LoadReplay<number>();
    const failed = loads.start();
    loads.changed(() => 1);
    expect(loads.fail(failed)).toBe(true);
    const next = loads.start();
    expect(loads.fail(failed)).toBe(false);
    expect(loads.finish(next, 5)).toEqual({ stale: false, data: 5 });
  });
});
