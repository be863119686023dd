import { type FormEvent, useState } from 'react';
import { MaxDeviceNameLength } from '../../../server/contract/schemas/gatewaySchemas.js';
import type { DeviceRecord } from '../api/types.js';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';

/** Names a modem as staff know it ("Front desk"); the gateway keeps it under the modem's IMEI. */
export function ModemNameForm(props: { device: DeviceRecord; onDone: () => void }) {
  const { api } = useApp();
  const [name, setName] = useState(props.device.name);
  const { busy, result, run } = useAction();
  const trimmed = name.trim();
  const id = `modem-name-${props.device.id}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (trimmed === '' || trimmed === props.device.name) return;
    const renamed = await run(async () => {
      await api.renameDevice(props.device.id, trimmed);
      return `Renamed to ${trimmed}.`;
    });
    if (renamed) props.onDone();
  }

  return (
    <form className="form-row" onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor={id}>Name</label>
        <input
          id={id}
          maxLength={MaxDeviceNameLength}
          value={name}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setName(event.target.value)}
        />
        <span id={`${id}-hint`} className="hint">
          Shown everywhere with its SIM and port; it follows the modem to any port.
        </span>
      </div>
      <button type="submit" disabled={busy || trimmed === '' || trimmed === props.device.name}>
        Save name
      </button>
      <FormResult result={result} />
    </form>
  );
}
