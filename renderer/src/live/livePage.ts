/**
 * One page of a server list (newest first) kept current by the live stream, without ever showing
 * what the server would not:
 * - an item on the page is updated in place (unless the update is older than what is shown);
 * - an item that is new — newer than everything the first page knows — is held back as an
 *   arrival: counted in the total at once, shown only when the user asks ("N new — show"), so
 *   rows never move under the pointer (an empty page shows it at once: nothing can move);
 * - anything else (a change of an item that is on another page) changes nothing here.
 *
 * Pure: the screens keep a `LivePage` in state and call these on each event.
 */
export interface LivePage<Item> {
  items: Item[];
  total: number | undefined;
  /** New items not shown yet, newest first. */
  arrivals: Item[];
}

export interface LiveRules<Item> {
  id(item: Item): string;
  /** When the item entered the list: the list's sort key, in ms. */
  listedAt(item: Item): number;
  /** Whether the item belongs to the list under the current filter. */
  matches(item: Item): boolean;
  /** Whether `update` is an older version of `current` (a late answer after a live event). */
  isBehind?(update: Item, current: Item): boolean;
}

export function livePageOf<Item>(page: { items: Item[]; total?: number | undefined }): LivePage<Item> {
  return { items: page.items, total: page.total, arrivals: [] };
}

export function applyLiveItem<Item>(
  page: LivePage<Item>,
  update: Item,
  rules: LiveRules<Item>,
  onFirstPage: boolean,
): LivePage<Item> {
  const id = rules.id(update);
  const replace = (items: Item[]) =>
    items.map((item) => (rules.id(item) === id && !rules.isBehind?.(update, item) ? update : item));
  if (page.items.some((item) => rules.id(item) === id)) return { ...page, items: replace(page.items) };
  if (page.arrivals.some((item) => rules.id(item) === id))
    return { ...page, arrivals: replace(page.arrivals) };
  if (!onFirstPage || !rules.matches(update) || !isNewerThanAll(update, page, rules)) return page;
  const total = page.total === undefined ? undefined : page.total + 1;
  // An empty list has no row to move under the pointer: the first arrival is simply shown.
  if (page.items.length === 0) return { items: [update], total, arrivals: [] };
  return {
    items: page.items,
    total,
    arrivals: [update, ...page.arrivals],
  };
}

/** Shows the held-back arrivals on top of the page, which keeps its size. */
export function showArrivals<Item>(page: LivePage<Item>, pageSize: number): LivePage<Item> {
  return { items: [...page.arrivals, ...page.items].slice(0, pageSize), total: page.total, arrivals: [] };
}

/**
 * The first page holds the newest items, so an item not on it is new only when it is newer than
 * every item it shows; an older one is a change of an item on a later page.
 */
function isNewerThanAll<Item>(update: Item, page: LivePage<Item>, rules: LiveRules<Item>): boolean {
  const listedAt = rules.listedAt(update);
  return [...page.items, ...page.arrivals].every((item) => rules.listedAt(item) < listedAt);
}
