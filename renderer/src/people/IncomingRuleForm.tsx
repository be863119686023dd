import { type FormEvent, useState } from 'react';
import type { AppView, DeviceRecord, SimTargetForm } from '../api/types.js';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { SimTargetChoice } from '../modems/SimTargetChoice.js';
import { useAction } from '../useAction.js';

type IncomingChoice = NonNullable<AppView['incoming']>;
type Mode = IncomingChoice['mode'];

const modeLabels: Record<Mode, string> = {
  all: 'All incoming SMS',
  devices: 'Those arriving on chosen modems',
  replies: 'Replies to this app',
  none: 'None',
};

/**
 * Which incoming SMS an app's webhooks hear (docs/accounts-plans-routing.md, "Apps"): all (the
 * default), none, those arriving on chosen modems or SIM slots, or replies from numbers the app's message
 * reached last. Saved with PATCH /gateway/v1/apps/{id}; the API checks the choice.
 */
export function IncomingRuleForm(props: {
  app: AppView;
  devices: readonly DeviceRecord[];
  onSaved: () => void;
}) {
  const { api } = useApp();
  const { app } = props;
  const current = app.incoming ?? { mode: 'all' };
  const [mode, setMode] = useState<Mode>(current.mode);
  const [deviceIds, setDeviceIds] = useState<SimTargetForm[]>(
    current.mode === 'devices' ? current.deviceIds : [],
  );
  const save = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const incoming: IncomingChoice = mode === 'devices' ? { mode, deviceIds } : { mode };
    const saved = await save.run(async () => {
      await api.changeApp(app.id, { incoming });
      return `${app.name} hears: ${modeLabels[mode].toLowerCase()}.`;
    });
    if (saved) props.onSaved();
  }

  return (
    <form aria-label={`Incoming SMS for ${app.name}`} onSubmit={(event) => void submit(event)}>
      <label>
        Incoming SMS its webhooks hear
        <select value={mode} onChange={(event) => setMode(event.target.value as Mode)}>
          {(Object.keys(modeLabels) as Mode[]).map((choice) => (
            <option key={choice} value={choice}>
              {modeLabels[choice]}
            </option>
          ))}
        </select>
      </label>
      {mode === 'devices' && (
        <SimTargetChoice legend="Modems" devices={props.devices} chosen={deviceIds} onChange={setDeviceIds} />
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
