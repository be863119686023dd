import { type FormEvent, useState } from 'react';
import type { AppView } from '../api/types.js';
import { useApp } from '../appContext.js';
import { DataTable } from '../components/DataTable.js';
import { downloadText } from '../components/fileDownload.js';
import { ErrorNote, FormResult, Loading } from '../components/StatusViews.js';
import { isoDay } from '../format/timeFormat.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';
import { AppLimitsForm } from './AppLimitsForm.js';
import { IncomingRuleForm } from './IncomingRuleForm.js';
import { QuotaFields, quotaDraft, quotaOf } from './QuotaFields.js';
import { SmppLoginControls } from './SmppLoginControls.js';

/**
 * Apps with logins of their own (docs/accounts-plans-routing.md, "Apps"): add one with a name,
 * a password and a daily or monthly quota, change its quota and the modems or SIM slots it may
 * use, choose which incoming SMS its webhooks hear, remove one, and download the usage of every app and person as CSV. The owner login is the default app and is not listed.
 */
export function AppsPanel() {
  const { api } = useApp();
  const apps = useResource(() => api.apps(), [api]);
  const devices = useResource(() => api.devices(), [api]);
  const remove = useAction();
  const usage = useAction();

  const removeApp = async (app: AppView) => {
    const done = await remove.run(async () => {
      await api.removeApp(app.id);
      return `${app.name} was removed with its tokens and webhooks.`;
    });
    if (done) apps.reload();
  };
  const downloadUsage = () =>
    usage.run(async () => {
      downloadText(`usage-${isoDay(Date.now())}.csv`, await api.usageCsv());
      return undefined;
    });

  return (
    <section className="panel" aria-labelledby="apps-title">
      <div className="page-head">
        <h2 id="apps-title">Apps</h2>
        <span className="inline-action">
          <button type="button" disabled={usage.busy} onClick={() => void downloadUsage()}>
            Download usage (CSV)
          </button>
          <FormResult result={usage.result} />
        </span>
      </div>
      <p className="hint">
        An app signs in to the API with its own name and password, sees only its own messages and webhooks,
        and may have a quota. The owner login is the default app and sees everything.
      </p>
      <AddAppForm onAdded={apps.reload} />
      <FormResult result={remove.result} />
      {apps.error !== undefined ? (
        <ErrorNote error={apps.error} onRetry={apps.reload} />
      ) : apps.data === undefined ? (
        <Loading what="apps" />
      ) : apps.data.length === 0 ? (
        <p className="muted">No apps yet.</p>
      ) : (
        <DataTable
          label="Apps"
          rows={apps.data}
          rowKey={(app) => app.id}
          columns={[
            { header: 'Name', cell: (app) => app.name },
            { header: 'Quota', cell: (app) => quotaText(app) },
            {
              header: 'Quota and modems',
              cell: (app) => (
                <>
                  <AppLimitsForm app={app} devices={devices.data ?? []} onSaved={apps.reload} />
                </>
              ),
            },
            {
              header: 'Incoming SMS',
              cell: (app) => (
                <>
                  <IncomingRuleForm app={app} devices={devices.data ?? []} onSaved={apps.reload} />
                </>
              ),
            },
            {
              header: 'SMPP login',
              cell: (app) => (
                <>
                  <SmppLoginControls
                    holder={{ kind: 'app', id: app.id }}
                    name={app.name}
                    systemId={app.smppSystemId}
                    onChanged={apps.reload}
                  />
                </>
              ),
            },
            {
              header: 'Actions',
              headerHidden: true,
              cell: (app) => (
                <>
                  <button
                    type="button"
                    className="link-button"
                    disabled={remove.busy}
                    onClick={() => void removeApp(app)}
                  >
                    Remove {app.name}
                  </button>
                </>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}

/** "2 of 3 today, 40 of 500 this month (resets 00:00 Europe/Berlin)": what is left is what matters. */
function quotaText(app: AppView): string {
  const { quota } = app;
  if (!quota) return 'No quota';
  const used = quota.usage.map(
    (use) => `${use.used} of ${use.limit} ${use.period === 'day' ? 'today' : 'this month'}`,
  );
  return `${used.join(', ')} (resets ${quota.resetAt} ${quota.timeZone})`;
}

function AddAppForm(props: { onAdded: () => void }) {
  const { api } = useApp();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [quota, setQuota] = useState(() => quotaDraft(undefined));
  const add = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const limits = quotaOf(quota);
    const added = await add.run(async () => {
      const app = await api.addApp({ name, password, ...(limits ? { quota: limits } : {}) });
      return `${app.name} can use the API now with its own name and password.`;
    });
    if (added) {
      setName('');
      setPassword('');
      props.onAdded();
    }
  }

  return (
    <form aria-label="Add an app" onSubmit={(event) => void submit(event)}>
      <div className="form-row">
        <label>
          App name
          <input
            name="appName"
            autoComplete="off"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <label>
          App password (8 characters or more)
          <input
            name="appPassword"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        <QuotaFields draft={quota} onChange={setQuota} />
      </div>
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={add.busy || name.trim() === '' || password === ''}
        >
          Add app
        </button>
        <FormResult result={add.result} />
      </div>
    </form>
  );
}
