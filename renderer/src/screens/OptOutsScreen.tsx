import { type FormEvent, useState } from 'react';
import type { OptOutRecord } from '../api/types.js';
import { useApp } from '../appContext.js';
import { DataTable } from '../components/DataTable.js';
import { ExportButton } from '../components/ExportButton.js';
import { PagedListPanel } from '../components/PagedListPanel.js';
import { RoleLimit, Writes } from '../components/RoleLimit.js';
import { EmptyState, FormResult } from '../components/StatusViews.js';
import type { CsvColumn } from '../format/csv.js';
import { formatDateTime } from '../format/timeFormat.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

const pageSize = 50;

const optOutCsvColumns: readonly CsvColumn<OptOutRecord>[] = [
  { header: 'phoneNumber', value: (row) => row.phoneNumber },
  { header: 'addedAt', value: (row) => row.addedAt },
  { header: 'source', value: (row) => row.source },
];

/**
 * The opt-out list (docs/desk.md "Opt-out"): numbers that texted STOP (or were added here) get no
 * more messages; the keywords and the confirmation text are on the Settings screen.
 */
export function OptOutsScreen() {
  const { api } = useApp();
  const [offset, setOffset] = useState(0);
  const [number, setNumber] = useState('');
  const page = useResource(() => api.listOptOuts(pageSize, offset), [api, offset]);
  const add = useAction();
  const remove = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const added = await add.run(async () => {
      const entry = await api.addOptOut(number);
      return `${entry.phoneNumber} is on the opt-out list.`;
    });
    if (added) {
      setNumber('');
      page.reload();
    }
  }

  async function removeNumber(phoneNumber: string) {
    if (await remove.run(async () => void (await api.removeOptOut(phoneNumber)))) page.reload();
  }

  return (
    <>
      <header className="page-head">
        <h1>Opt-outs</h1>
        <div className="head-actions">
          <ExportButton
            fileStem="opt-outs"
            columns={optOutCsvColumns}
            fetchPage={(limit, pageOffset) => api.listOptOuts(limit, pageOffset)}
          />
        </div>
      </header>
      <p className="hint">
        A message to a number on this list is not sent: that recipient ends Failed with “opted out”. People
        join by texting an opt-out keyword (STOP…) and leave by texting START; the words and the confirmation
        text are under Settings. API clients can override the list per message with ignoreOptOut.
      </p>
      <RoleLimit scope="optouts:write" what="the list" />
      <Writes scope="optouts:write">
        <form className="form-row panel" onSubmit={(event) => void submit(event)} aria-label="Add a number">
          <label>
            Number
            <input
              name="phoneNumber"
              value={number}
              placeholder="+15551234567"
              onChange={(event) => setNumber(event.target.value)}
            />
          </label>
          <div className="form-actions">
            <button type="submit" className="primary" disabled={add.busy || number.trim() === ''}>
              Add to the list
            </button>
            <FormResult result={add.result} />
          </div>
        </form>
      </Writes>
      <PagedListPanel
        list={page}
        what="opt-outs"
        empty={<EmptyState title="Nobody has opted out." />}
        offset={offset}
        pageSize={pageSize}
        onOffset={setOffset}
        banner={<FormResult result={remove.result} />}
      >
        {(rows) => (
          <DataTable
            label="Opted-out numbers"
            rows={rows}
            rowKey={(row) => row.phoneNumber}
            columns={[
              { header: 'Number', className: 'mono', cell: (row) => row.phoneNumber },
              { header: 'Since', className: 'nowrap', cell: (row) => formatDateTime(row.addedAt) },
              {
                header: 'How',
                cell: (row) => (row.source === 'keyword' ? 'Texted a keyword' : 'Added by hand'),
              },
              {
                header: 'Actions',
                headerHidden: true,
                cell: (row) => (
                  <Writes scope="optouts:write">
                    <button
                      type="button"
                      className="link-button"
                      disabled={remove.busy}
                      onClick={() => void removeNumber(row.phoneNumber)}
                    >
                      Remove
                    </button>
                  </Writes>
                ),
              },
            ]}
          />
        )}
      </PagedListPanel>
    </>
  );
}
