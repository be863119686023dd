import { type FormEvent, useState } from 'react';
import type { AppView, DeviceRecord, SimTargetForm } from '../api/types.js';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { SimTargetChoice } from '../modems/SimTargetChoice.js';
import { useAction } from '../useAction.js';
import { QuotaFields, quotaDraft, quotaOf } from './QuotaFields.js';

/**
 * An app's quota and the modems or SIM slots its messages may go through
 * (docs/accounts-plans-routing.md, "Apps"): no counts, no quota; "Any modem", no limit on
 * modems. Saved with PATCH /gateway/v1/apps/{id}; the API checks the fields.
 */
export function AppLimitsForm(props: {
  app: AppView;
  devices: readonly DeviceRecord[];
  onSaved: () => void;
}) {
  const { api } = useApp();
  const { app } = props;
  const [quota, setQuota] = useState(() => quotaDraft(app.quota));
  const [anyModem, setAnyModem] = useState(app.allowedDeviceIds === undefined);
  const [allowed, setAllowed] = useState<SimTargetForm[]>(app.allowedDeviceIds ?? []);
  const save = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const saved = await save.run(async () => {
      await api.changeApp(app.id, {
        quota: quotaOf(quota) ?? null,
        allowedDeviceIds: anyModem ? null : allowed,
      });
      return `Saved the quota and modems of ${app.name}.`;
    });
    if (saved) props.onSaved();
  }

  return (
    <form aria-label={`Quota and modems of ${app.name}`} onSubmit={(event) => void submit(event)}>
      <div className="form-row">
        <QuotaFields draft={quota} onChange={setQuota} />
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={anyModem} onChange={(event) => setAnyModem(event.target.checked)} />
        Any modem
      </label>
      {!anyModem && (
        <SimTargetChoice
          legend="Allowed modems"
          devices={props.devices}
          chosen={allowed}
          onChange={setAllowed}
        />
      )}
      <div className="form-actions">
        <button type="submit" disabled={save.busy}>
          Save
        </button>
        <FormResult result={save.result} />
      </div>
    </form>
  );
}
