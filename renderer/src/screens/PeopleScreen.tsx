import { type FormEvent, useState } from 'react';
import type { StaffRole, StaffView } from '../api/types.js';
import { useApp } from '../appContext.js';
import { DataTable } from '../components/DataTable.js';
import { ExportButton } from '../components/ExportButton.js';
import { PagedListPanel } from '../components/PagedListPanel.js';
import { EmptyState, ErrorNote, FormResult, Loading } from '../components/StatusViews.js';
import { formatDateTime } from '../format/timeFormat.js';
import { AppsPanel } from '../people/AppsPanel.js';
import { auditCsvColumns } from '../people/auditColumns.js';
import { SmppLoginControls } from '../people/SmppLoginControls.js';
import { usePerson } from '../session/person.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

const roleChoices: readonly { role: StaffRole; meaning: string }[] = [
  { role: 'owner', meaning: 'Owner — everything, people and settings included' },
  { role: 'operator', meaning: 'Operator — send, reply, contacts, campaigns' },
  { role: 'viewer', meaning: 'Viewer — read only' },
];

const pageSize = 50;

/**
 * The people who sign in (docs/accounts-plans-routing.md): add one with a name, password and
 * role, change a role or set a new password, remove them; and the audit trail of who changed
 * what, exportable. Only owners see this screen.
 */
export function PeopleScreen() {
  const { api } = useApp();
  const { may } = usePerson();
  const people = useResource(() => api.people(), [api]);
  return (
    <>
      <header className="page-head">
        <h1>People</h1>
      </header>
      <p className="hint">
        Each person signs in to the window with their own name and password. The owner login is the gateway’s
        Basic login (change it under API access); its clients keep working unchanged.
      </p>
      <AddPersonPanel onAdded={people.reload} />
      <section className="panel" aria-labelledby="people-title">
        <h2 id="people-title">Who can sign in</h2>
        {people.error !== undefined ? (
          <ErrorNote error={people.error} onRetry={people.reload} />
        ) : people.data === undefined ? (
          <Loading what="people" />
        ) : (
          <PeopleTable people={people.data} onChanged={people.reload} />
        )}
      </section>
      {may('apps:manage') && <AppsPanel />}
      <AuditPanel />
    </>
  );
}

function AddPersonPanel(props: { onAdded: () => void }) {
  const { api } = useApp();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<StaffRole>('operator');
  const add = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const added = await add.run(async () => {
      const person = await api.addPerson({ name, password, role });
      return `${person.name} can sign in now, as ${person.role}.`;
    });
    if (added) {
      setName('');
      setPassword('');
      props.onAdded();
    }
  }

  return (
    <form className="panel" aria-label="Add a person" onSubmit={(event) => void submit(event)}>
      <h2>Add a person</h2>
      <div className="form-row">
        <label>
          Name
          <input
            name="name"
            autoComplete="off"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <label>
          Password (8 characters or more)
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        <label>
          Role
          <select value={role} onChange={(event) => setRole(event.target.value as StaffRole)}>
            {roleChoices.map((choice) => (
              <option key={choice.role} value={choice.role}>
                {choice.meaning}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={add.busy || name.trim() === '' || password === ''}
        >
          Add
        </button>
        <FormResult result={add.result} />
      </div>
    </form>
  );
}

function PeopleTable(props: { people: StaffView[]; onChanged: () => void }) {
  const { api } = useApp();
  const change = useAction();

  const setRole = async (person: StaffView, role: StaffRole) => {
    const done = await change.run(async () => {
      await api.changePerson(person.id, { role });
      return `${person.name} is ${role} now.`;
    });
    if (done) props.onChanged();
  };
  const remove = async (person: StaffView) => {
    const done = await change.run(async () => {
      await api.removePerson(person.id);
      return `${person.name} was removed; their sessions and tokens have ended.`;
    });
    if (done) props.onChanged();
  };
  const newPassword = async (person: StaffView) => {
    const password = window.prompt(`New password for ${person.name} (8 characters or more)`);
    if (!password) return;
    await change.run(async () => {
      await api.changePerson(person.id, { password });
      return `${person.name} has a new password; their sessions and tokens have ended.`;
    });
  };

  const smppLogin = (person: StaffView) => (
    <SmppLoginControls
      holder={{ kind: 'person', id: person.id }}
      name={person.name}
      systemId={person.smppSystemId}
      onChanged={props.onChanged}
    />
  );

  return (
    <>
      <FormResult result={change.result} />
      <DataTable
        label="People"
        rows={props.people}
        rowKey={(person) => person.id}
        columns={[
          { header: 'Name', cell: (person) => person.name },
          {
            header: 'Role',
            cell: (person) =>
              person.id === 'owner' ? (
                'owner (the Basic login)'
              ) : (
                <select
                  aria-label={`Role of ${person.name}`}
                  value={person.role}
                  disabled={change.busy}
                  onChange={(event) => void setRole(person, event.target.value as StaffRole)}
                >
                  {roleChoices.map((choice) => (
                    <option key={choice.role} value={choice.role}>
                      {choice.role}
                    </option>
                  ))}
                </select>
              ),
          },
          {
            header: 'Added',
            className: 'nowrap',
            cell: (person) =>
              person.createdAt
                ? `${formatDateTime(person.createdAt)}${person.createdBy ? ` by ${person.createdBy}` : ''}`
                : '—',
          },
          { header: 'SMPP login', cell: (person) => smppLogin(person) },
          {
            header: 'Actions',
            headerHidden: true,
            className: 'nowrap',
            cell: (person) =>
              person.id === 'owner' ? null : (
                <>
                  <button
                    type="button"
                    className="link-button"
                    disabled={change.busy}
                    onClick={() => void newPassword(person)}
                  >
                    New password
                  </button>{' '}
                  <button
                    type="button"
                    className="link-button"
                    disabled={change.busy}
                    onClick={() => void remove(person)}
                  >
                    Remove {person.name}
                  </button>
                </>
              ),
          },
        ]}
      />
    </>
  );
}

function AuditPanel() {
  const { api } = useApp();
  const [offset, setOffset] = useState(0);
  const page = useResource(() => api.listAudit({}, pageSize, offset), [api, offset]);
  return (
    <section className="panel" aria-labelledby="audit-title">
      <div className="page-head">
        <h2 id="audit-title">Who changed what</h2>
        <ExportButton
          fileStem="audit"
          columns={auditCsvColumns}
          fetchPage={(limit, pageOffset) => api.listAudit({}, limit, pageOffset)}
        />
      </div>
      <PagedListPanel
        className="plain"
        list={page}
        what="the audit trail"
        empty={<EmptyState title="Nothing changed yet." />}
        offset={offset}
        pageSize={pageSize}
        onOffset={setOffset}
      >
        {(rows) => (
          <DataTable
            label="Audit trail"
            rows={rows}
            rowKey={(row) => row.seq}
            columns={[
              { header: 'When', className: 'nowrap', cell: (row) => formatDateTime(row.at) },
              { header: 'Who', cell: (row) => row.actorName },
              {
                header: 'What',
                cell: (row) => (
                  <>
                    {row.summary} <code className="small">{row.action}</code>
                  </>
                ),
              },
              { header: 'Id', className: 'mono', cell: (row) => row.subject ?? '' },
            ]}
          />
        )}
      </PagedListPanel>
    </section>
  );
}
