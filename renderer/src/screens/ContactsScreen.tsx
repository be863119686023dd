import { type FormEvent, useState } from 'react';
import { useApp } from '../appContext.js';
import { DataTable } from '../components/DataTable.js';
import { ExportButton } from '../components/ExportButton.js';
import { IdSelect } from '../components/IdSelect.js';
import { PagedListPanel } from '../components/PagedListPanel.js';
import { RoleLimit, Writes } from '../components/RoleLimit.js';
import { EmptyState, FormResult } from '../components/StatusViews.js';
import { ContactForm } from '../desk/ContactForm.js';
import { ContactImportPanel } from '../desk/ContactImportPanel.js';
import { contactCsvColumns } from '../desk/contactCsv.js';
import type { Contact } from '../desk/deskTypes.js';
import { searchNeedle } from '../desk/typedNumbers.js';
import { useDefaultCountry } from '../desk/useDefaultCountry.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

const pageSize = 50;

/** The address book: search, add, edit, remove, groups, CSV import and export. */
export function ContactsScreen() {
  const { api } = useApp();
  const [search, setSearch] = useState('');
  const [groupId, setGroupId] = useState('');
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<Contact | 'new'>();
  const [importing, setImporting] = useState(false);
  const groups = useResource(() => api.groups(), [api]);
  const needle = searchNeedle(search, useDefaultCountry());
  const filter = { search: needle || undefined, groupId: groupId || undefined };
  const page = useResource(() => api.listContacts(filter, pageSize, offset), [api, needle, groupId, offset]);
  const groupName = (id: string) => groups.data?.find((group) => group.id === id)?.name ?? id;
  const reload = () => {
    page.reload();
    groups.reload();
  };

  return (
    <>
      <header className="page-head">
        <h1>Contacts</h1>
        <div className="head-actions">
          <ExportButton
            fileStem="contacts"
            columns={contactCsvColumns(groups.data ?? [])}
            fetchPage={(limit, pageOffset) => api.listContacts(filter, limit, pageOffset)}
          />
          <Writes scope="contacts:write">
            <button type="button" aria-expanded={importing} onClick={() => setImporting(!importing)}>
              {importing ? 'Close import' : 'Import CSV'}
            </button>
            <button type="button" className="primary" onClick={() => setEditing('new')}>
              New contact
            </button>
          </Writes>
        </div>
      </header>
      <RoleLimit scope="contacts:write" what="the contacts and groups" />

      {importing && <ContactImportPanel onImported={reload} />}
      {editing && (
        <section className="panel" aria-label={editing === 'new' ? 'New contact' : 'Edit contact'}>
          <ContactForm
            key={editing === 'new' ? 'new' : editing.id}
            contact={editing === 'new' ? undefined : editing}
            groups={groups.data ?? []}
            onSaved={() => {
              setEditing(undefined);
              reload();
            }}
            onClose={() => setEditing(undefined)}
          />
        </section>
      )}

      <section className="filters" aria-label="Filters">
        <label>
          Search
          <input
            type="search"
            placeholder="Name, number or notes"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setOffset(0);
            }}
          />
        </label>
        <IdSelect
          label="Group"
          none="All contacts"
          choices={groups.data}
          nameOf={(group) => `${group.name} (${group.size})`}
          value={groupId}
          onChange={(id) => {
            setGroupId(id);
            setOffset(0);
          }}
        />
      </section>

      <PagedListPanel
        list={page}
        what="contacts"
        empty={<EmptyState title="No contacts.">Add one, or import a CSV from your spreadsheet.</EmptyState>}
        offset={offset}
        pageSize={pageSize}
        onOffset={setOffset}
      >
        {(rows) => (
          <DataTable
            label="Contacts"
            rows={rows}
            rowKey={(contact) => contact.id}
            columns={[
              { header: 'Name', cell: (contact) => contact.name },
              { header: 'Number', className: 'mono', cell: (contact) => contact.phoneNumber },
              {
                header: 'Groups',
                // By name: the ids a contact holds come in no order a person would recognise.
                cell: (contact) =>
                  contact.groupIds
                    .map(groupName)
                    .sort((a, b) => a.localeCompare(b))
                    .join(', '),
              },
              { header: 'Notes', className: 'truncate', cell: (contact) => contact.notes },
              {
                header: 'Actions',
                headerHidden: true,
                className: 'nowrap',
                cell: (contact) => (
                  <Writes scope="contacts:write">
                    <button type="button" className="link-button" onClick={() => setEditing(contact)}>
                      Edit
                    </button>{' '}
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => void api.removeContact(contact.id).then(reload)}
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
      <GroupsPanel groups={groups.data ?? []} onChanged={reload} />
    </>
  );
}

function GroupsPanel(props: { groups: { id: string; name: string; size: number }[]; onChanged: () => void }) {
  const { api } = useApp();
  const [name, setName] = useState('');
  const { busy, result, run } = useAction();
  async function add(event: FormEvent) {
    event.preventDefault();
    if (await run(async () => void (await api.createGroup(name)))) {
      setName('');
      props.onChanged();
    }
  }
  return (
    <section className="panel" aria-label="Groups">
      <h2>Groups</h2>
      <ul className="plain-list">
        {props.groups.map((group) => (
          <li key={group.id}>
            {group.name} ({group.size}){' '}
            <Writes scope="contacts:write">
              <button
                type="button"
                className="link-button"
                onClick={() => void api.removeGroup(group.id).then(props.onChanged)}
              >
                Remove group
              </button>
            </Writes>
          </li>
        ))}
      </ul>
      <Writes scope="contacts:write">
        <form className="form-row" onSubmit={(event) => void add(event)} aria-label="New group">
          <label>
            New group
            <input required value={name} onChange={(event) => setName(event.target.value)} />
          </label>
          <button type="submit" disabled={busy}>
            Add group
          </button>
          <FormResult result={result} />
        </form>
      </Writes>
    </section>
  );
}
