import { type FormEvent, useState } from 'react';
import { useApp } from '../appContext.js';
import { DataTable } from '../components/DataTable.js';
import { ListView } from '../components/ListView.js';
import { RoleLimit, Writes } from '../components/RoleLimit.js';
import { EmptyState, FormResult } from '../components/StatusViews.js';
import type { Template } from '../desk/deskTypes.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

/** Saved texts with placeholders ({name}, {order}), picked in Compose and Bulk send. */
export function TemplatesScreen() {
  const { api } = useApp();
  const templates = useResource(() => api.templates(), [api]);
  const [editing, setEditing] = useState<Template | 'new'>();
  return (
    <>
      <header className="page-head">
        <h1>Templates</h1>
        <div className="head-actions">
          <Writes scope="templates:write">
            <button type="button" className="primary" onClick={() => setEditing('new')}>
              New template
            </button>
          </Writes>
        </div>
      </header>
      <RoleLimit scope="templates:write" what="the templates" />
      {editing && (
        <section className="panel" aria-label="Template">
          <TemplateForm
            key={editing === 'new' ? 'new' : editing.id}
            template={editing === 'new' ? undefined : editing}
            onDone={() => {
              setEditing(undefined);
              templates.reload();
            }}
          />
        </section>
      )}
      <section className="panel">
        <ListView
          read={templates}
          items={templates.data}
          what="templates"
          empty={
            <EmptyState title="No templates.">
              Save texts you send often; {'{name}'} takes each recipient's name.
            </EmptyState>
          }
        >
          {(shown) => (
            <DataTable
              label="Templates"
              rows={shown}
              rowKey={(template) => template.id}
              columns={[
                { header: 'Name', cell: (template) => template.name },
                { header: 'Text', className: 'truncate', cell: (template) => template.text },
                {
                  header: 'Placeholders',
                  cell: (template) => template.placeholders.map((name) => `{${name}}`).join(' '),
                },
                {
                  header: 'Actions',
                  headerHidden: true,
                  className: 'nowrap',
                  cell: (template) => (
                    <Writes scope="templates:write">
                      <button type="button" className="link-button" onClick={() => setEditing(template)}>
                        Edit
                      </button>{' '}
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => void api.removeTemplate(template.id).then(templates.reload)}
                      >
                        Remove
                      </button>
                    </Writes>
                  ),
                },
              ]}
            />
          )}
        </ListView>
      </section>
    </>
  );
}

function TemplateForm(props: { template?: Template; onDone: () => void }) {
  const { api } = useApp();
  const [name, setName] = useState(props.template?.name ?? '');
  const [text, setText] = useState(props.template?.text ?? '');
  const { busy, result, run } = useAction();
  async function submit(event: FormEvent) {
    event.preventDefault();
    const saved = await run(async () => {
      if (props.template) await api.replaceTemplate(props.template.id, name, text);
      else await api.createTemplate(name, text);
      return undefined;
    });
    if (saved) props.onDone();
  }
  return (
    <form className="compose" aria-label="Edit template" onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor="template-name">Name</label>
        <input id="template-name" required value={name} onChange={(event) => setName(event.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="template-text">Text</label>
        <textarea
          id="template-text"
          required
          rows={3}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <span className="hint">
          {'{name}'} and the columns of a CSV (e.g. {'{order}'}) are filled in per recipient.
        </span>
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Save template
        </button>
        <button type="button" onClick={props.onDone}>
          Cancel
        </button>
        <FormResult result={result} />
      </div>
    </form>
  );
}
