import type { ReactNode } from 'react';
import { PagedListPanel } from '../components/PagedListPanel.js';
import { NewArrivalsBar } from './NewArrivalsBar.js';
import type { PagedLiveList } from './usePagedLiveList.js';

/** The panel of a live list (Messages, Inbox): the "N new — show" bar above the paged rows. */
export function LiveListPanel<Item>(props: {
  page: PagedLiveList<Item>;
  /** One item, as the bar and the loading line say it: "message", "received message". */
  noun: string;
  empty: ReactNode;
  children: (rows: Item[]) => ReactNode;
}) {
  const { page, noun } = props;
  return (
    <PagedListPanel
      list={page.list}
      what={`${noun}s`}
      empty={props.empty}
      offset={page.offset}
      pageSize={page.pageSize}
      onOffset={page.setOffset}
      banner={<NewArrivalsBar count={page.arrivals} noun={noun} onShow={page.showArrivals} />}
    >
      {props.children}
    </PagedListPanel>
  );
}
