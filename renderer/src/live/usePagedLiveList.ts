import type { Page } from '../format/csv.js';
import { type Resource, useResource } from '../useResource.js';
import { type LiveEventName, useLiveEvent } from './LiveEvents.js';
import { applyLiveItem, type LivePage, type LiveRules, livePageOf, showArrivals } from './livePage.js';

/**
 * One page of a filtered server list kept current by one kind of live event (see `livePage.ts`):
 * the Messages and Inbox screens. A change of filter or offset reads the page again.
 */
export interface PagedLiveList<Item> {
  list: Resource<LivePage<Item>>;
  offset: number;
  pageSize: number;
  setOffset(offset: number): void;
  rows: Item[];
  /** How many new items wait behind the "N new — show" bar. */
  arrivals: number;
  /** Takes a changed or new item, from the stream or from the user's own action. */
  apply(item: Item): void;
  /** Shows the waiting arrivals on top of the page. */
  showArrivals(): void;
}

export function usePagedLiveList<Item, Filter, Event>(options: {
  filter: Filter;
  offset: number;
  setOffset: (offset: number) => void;
  pageSize: number;
  /** Stable for the session (an API method), so it reloads only when the API changes. */
  fetchPage: (filter: Filter, limit: number, offset: number) => Promise<Page<Item>>;
  event: LiveEventName;
  itemOf: (event: Event) => Item;
  rules: (filter: Filter) => LiveRules<Item>;
}): PagedLiveList<Item> {
  const { filter, offset, pageSize, fetchPage } = options;
  const filterKey = JSON.stringify(filter);
  const list = useResource(
    () => fetchPage(filter, pageSize, offset).then(livePageOf),
    [fetchPage, filterKey, offset, pageSize],
  );
  const apply = (item: Item) =>
    list.setData((current) => current && applyLiveItem(current, item, options.rules(filter), offset === 0));
  useLiveEvent<Event>(options.event, (event) => apply(options.itemOf(event)));
  return {
    list,
    offset,
    pageSize,
    setOffset: options.setOffset,
    rows: list.data?.items ?? [],
    arrivals: list.data?.arrivals.length ?? 0,
    apply,
    showArrivals: () => list.setData((current) => current && showArrivals(current, pageSize)),
  };
}
