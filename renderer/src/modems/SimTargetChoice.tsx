import type { ReactNode } from 'react';
import type { DeviceRecord, SimTargetForm } from '../api/types.js';
import { modemLabelById } from './modemLabel.js';
import { isChosen, slotCount, slotLabel, targetDevice, withModem, withSlot } from './simTargets.js';

/**
 * A checkbox per modem and, under a modem with several SIM slots, one per slot: the modem means
 * every slot of it. A chosen modem the gateway no longer knows stays listed, by its id.
 */
export function SimTargetChoice(props: {
  legend: string;
  devices: readonly DeviceRecord[];
  chosen: readonly SimTargetForm[];
  onChange: (targets: SimTargetForm[]) => void;
  /** Shown under the choices: the refusal of this field. */
  error?: ReactNode;
}) {
  const { devices, chosen, onChange } = props;
  const known = devices.map((device) => device.id);
  const ids = [...known, ...new Set(chosen.map(targetDevice).filter((id) => !known.includes(id)))];
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {ids.length === 0 && <p className="muted">No modems yet.</p>}
      {ids.map((id) => {
        const device = devices.find((entry) => entry.id === id);
        const slots = device ? slotCount(device) : 1;
        return (
          <div key={id}>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={isChosen(chosen, id)}
                onChange={(event) => onChange(withModem(chosen, id, event.target.checked))}
              />
              {modemLabelById(devices, id)}
              {slots > 1 && ' (every SIM)'}
            </label>
            {slots > 1 &&
              Array.from({ length: slots }, (_, index) => index + 1).map((slot) => (
                <label key={slot} className="checkbox nested">
                  <input
                    type="checkbox"
                    checked={isChosen(chosen, id, slot)}
                    onChange={(event) => onChange(withSlot(chosen, id, slot, slots, event.target.checked))}
                  />
                  {slotLabel(devices, id, slot)}
                </label>
              ))}
          </div>
        );
      })}
      {props.error}
    </fieldset>
  );
}
