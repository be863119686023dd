import type { ReactNode } from 'react';
import type { Resource } from '../useResource.js';
import { ErrorNote, Loading } from './StatusViews.js';

/**
 * What a list read shows: "Loading…" until its first answer, its error with "Try again", the
 * empty state, or the items (drawn by the screen).
 */
export function ListView<Item>(props: {
  read: Pick<Resource<unknown>, 'loading' | 'error' | 'reload'>;
  /** Undefined until the first answer. */
  items: Item[] | undefined;
  /** Said while the first answer is awaited: "Loading {what}…". */
  what: string;
  empty: ReactNode;
  children: (items: Item[]) => ReactNode;
}) {
  const { read, items } = props;
  return (
    <>
      {read.loading && !items && <Loading what={props.what} />}
      {read.error !== undefined && <ErrorNote error={read.error} onRetry={read.reload} />}
      {items && items.length === 0 && props.empty}
      {items && items.length > 0 && props.children(items)}
    </>
  );
}
