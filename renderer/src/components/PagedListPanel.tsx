import type { ReactNode } from 'react';
import type { Page } from '../format/csv.js';
import type { Resource } from '../useResource.js';
import { Pager } from './FilterControls.js';
import { ErrorNote, Loading } from './StatusViews.js';

/**
 * The panel of every paged list screen: loading, the read's error with "Try again", the empty
 * state, the rows (drawn by the screen) and the pager. `banner` stands above them all: the
 * "N new — show" bar, or the outcome of an action on a row.
 */
export function PagedListPanel<Item>(props: {
  list: Pick<Resource<Page<Item>>, 'data' | 'error' | 'loading' | 'reload'>;
  /** Said while the first page loads: "Loading {what}…". */
  what: string;
  empty: ReactNode;
  offset: number;
  pageSize: number;
  onOffset: (offset: number) => void;
  banner?: ReactNode;
  className?: string;
  'aria-label'?: string;
  children: (rows: Item[]) => ReactNode;
}) {
  const { list } = props;
  const rows = list.data?.items ?? [];
  return (
    <section className={props.className ?? 'panel'} aria-label={props['aria-label']}>
      {props.banner}
      {list.loading && !list.data && <Loading what={props.what} />}
      {list.error !== undefined && <ErrorNote error={list.error} onRetry={list.reload} />}
      {list.data && rows.length === 0 && props.empty}
      {rows.length > 0 && props.children(rows)}
      {list.data && rows.length > 0 && (
        <Pager
          offset={props.offset}
          pageSize={props.pageSize}
          shown={rows.length}
          total={list.data.total}
          onOffset={props.onOffset}
        />
      )}
    </section>
  );
}
