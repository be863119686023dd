import type { ReactNode } from 'react';
import type { Page } from '../format/csv.js';
import type { Resource } from '../useResource.js';
import { Pager } from './FilterControls.js';
import { ListView } from './ListView.js';

/**
 * The panel of every paged list screen: the list's states and rows (see `ListView`) and the
 * pager. `banner` stands above them: the "N new — show" bar, or the outcome of an action on a row.
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
  return (
    <section className={props.className ?? 'panel'} aria-label={props['aria-label']}>
      {props.banner}
      <ListView read={list} items={list.data?.items} what={props.what} empty={props.empty}>
        {(rows) => (
          <>
            {props.children(rows)}
            <Pager
              offset={props.offset}
              pageSize={props.pageSize}
              shown={rows.length}
              total={list.data?.total}
              onOffset={props.onOffset}
            />
          </>
        )}
      </ListView>
    </section>
  );
}
