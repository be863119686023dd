import type { InboxFilter } from '../api/gatewayApi.js';
import { InboxTypes } from '../api/types.js';
import { useApp } from '../appContext.js';
import { DataTable } from '../components/DataTable.js';
import { ExportButton } from '../components/ExportButton.js';
import { SharedFilterControls, useSharedFilters } from '../components/FilterControls.js';
import { Writes } from '../components/RoleLimit.js';
import { EmptyState, FormResult } from '../components/StatusViews.js';
import { namedExport } from '../desk/namedExport.js';
import { useContactNames, withName } from '../desk/useContactNames.js';
import { formatDateTime } from '../format/timeFormat.js';
import { inboxCsvColumns, inboxLiveRules, inboxRecordFromEvent } from '../inbox/inboxRows.js';
import { LiveListPanel } from '../live/LiveListPanel.js';
import { usePagedLiveList } from '../live/usePagedLiveList.js';
import { modemLabelById } from '../modems/modemLabel.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

const pageSize = 50;
/** The inbox's types in words: an MMS is first a notice from the network, then the downloaded message. */
const typeNames: Record<(typeof InboxTypes)[number], string> = {
  SMS: 'SMS',
  DATA_SMS: 'Data SMS',
  MMS: 'MMS notice',
  MMS_DOWNLOADED: 'MMS (downloaded)',
};
const typeChoices = InboxTypes.map((type) => ({ id: type, name: typeNames[type] }));
/** How far back "Re-read modem storage" looks: messages older than this are rarely left on a SIM. */
const refreshWindowMs = 30 * 24 * 3600 * 1000;

export function InboxScreen() {
  const { api } = useApp();
  const devices = useResource(() => api.devices(), [api]);
  const filters = useSharedFilters();
  const { offset, setOffset } = filters;
  const refresh = useAction();

  const filter: InboxFilter = {
    type: filters.values.kind || undefined,
    ...filters.query,
  };
  const page = usePagedLiveList({
    filter,
    offset,
    setOffset,
    pageSize,
    fetchPage: api.listInbox,
    event: 'incoming',
    itemOf: inboxRecordFromEvent,
    rules: inboxLiveRules,
  });

  async function rereadStorage() {
    const started = await refresh.run(async () => {
      const until = new Date();
      await api.refreshInbox(new Date(until.getTime() - refreshWindowMs).toISOString(), until.toISOString());
      return 'The modems are reading their storage; new messages appear here.';
    });
    if (started) page.list.reload();
  }

  const nameOf = useContactNames(page.rows.map((record) => record.sender));
  const deviceName = (id: string | undefined) => modemLabelById(devices.data, id);

  return (
    <>
      <header className="page-head">
        <h1>Inbox</h1>
        <div className="head-actions">
          <ExportButton
            fileStem="inbox"
            {...namedExport({
              columns: inboxCsvColumns(devices.data),
              header: 'sender_name',
              numbersOf: (record) => [record.sender],
              fetchPage: (limit, pageOffset) => api.listInbox(filter, limit, pageOffset),
              lookup: api.contactNames,
            })}
          />
          <Writes scope="inbox:refresh">
            <button type="button" disabled={refresh.busy} onClick={() => void rereadStorage()}>
              {refresh.busy ? 'Reading…' : 'Re-read modem storage'}
            </button>
          </Writes>
        </div>
      </header>
      <FormResult result={refresh.result} />

      <SharedFilterControls
        kind={{ label: 'Type', all: 'All types', choices: typeChoices }}
        devices={devices.data}
        values={filters.values}
        onChange={filters.change}
        searchPlaceholder="Text, sender or contact name"
      />
      <ContactMatches
        search={filters.query.search}
        onPick={(phoneNumber) => filters.change({ search: phoneNumber })}
      />

      <LiveListPanel
        page={page}
        noun="received message"
        empty={
          <EmptyState title="No received messages match.">
            SMS that arrive at a modem appear here at once.
          </EmptyState>
        }
      >
        {(rows) => (
          <DataTable
            label="Received messages"
            rows={rows}
            rowKey={(record) => `${record.id}-${record.createdAt}`}
            columns={[
              { header: 'Received', className: 'nowrap', cell: (record) => formatDateTime(record.createdAt) },
              {
                header: 'From',
                className: 'mono',
                cell: (record) => withName(record.sender, nameOf(record.sender)),
              },
              { header: 'Message', className: 'message-cell', cell: (record) => record.contentPreview },
              {
                header: 'Modem',
                cell: (record) =>
                  `${deviceName(record.deviceId)}${record.simNumber !== undefined ? ` · SIM ${record.simNumber}` : ''}`,
              },
              { header: 'Type', cell: (record) => typeNames[record.type] },
            ]}
          />
        )}
      </LiveListPanel>
    </>
  );
}

/** How many contacts a name search offers. */
const contactMatchLimit = 5;

/**
 * The contacts whose name (or notes) hold the search: their received messages are one click
 * away, as the inbox stores senders by number only.
 */
function ContactMatches(props: { search: string | undefined; onPick: (phoneNumber: string) => void }) {
  const { api } = useApp();
  const { search } = props;
  const named = search !== undefined && !search.startsWith('+') && /\p{L}/u.test(search);
  const contacts = useResource(
    async () => (named ? (await api.listContacts({ search }, contactMatchLimit, 0)).items : []),
    [api, named, search],
  );
  if (!contacts.data || contacts.data.length === 0) return null;
  return (
    <ul className="plain chips" aria-label="Contacts matching the search">
      {contacts.data.map((contact) => (
        <li key={contact.id}>
          <button type="button" className="button-small" onClick={() => props.onPick(contact.phoneNumber)}>
            Messages from {withName(contact.phoneNumber, contact.name)}
          </button>
        </li>
      ))}
    </ul>
  );
}
