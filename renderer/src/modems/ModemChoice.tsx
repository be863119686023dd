import type { ReactNode } from 'react';
import type { DeviceRecord } from '../api/types.js';
import { modemLabelById } from './modemLabel.js';

/** A checkbox per modem; a chosen modem the gateway no longer knows stays listed, by its id. */
export function ModemChoice(props: {
  legend: string;
  devices: readonly DeviceRecord[];
  chosen: readonly string[];
  onChange: (ids: string[]) => void;
  /** Shown under the choices: the refusal of this field. */
  error?: ReactNode;
}) {
  const known = props.devices.map((device) => device.id);
  const ids = [...known, ...props.chosen.filter((id) => !known.includes(id))];
  const toggle = (id: string, on: boolean) =>
    props.onChange(on ? [...props.chosen, id] : props.chosen.filter((chosen) => chosen !== id));
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {ids.length === 0 && <p className="muted">No modems yet.</p>}
      {ids.map((id) => (
        <label key={id} className="checkbox">
          <input
            type="checkbox"
            checked={props.chosen.includes(id)}
            onChange={(event) => toggle(id, event.target.checked)}
          />
          {modemLabelById(props.devices, id)}
        </label>
      ))}
      {props.error}
    </fieldset>
  );
}
