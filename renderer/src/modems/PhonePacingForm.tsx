import { type FormEvent, useEffect, useState } from 'react';
import { PhonePacingRanges } from '../../../server/contract/schemas/phoneSchemas.js';
import type { PhonePacing } from '../api/types.js';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

type Draft = Record<keyof PhonePacing, string>;

const fields: { key: keyof PhonePacing; label: string; min: number; max: number; optional?: boolean }[] = [
  { key: 'maxPerPeriod', label: 'At most (messages)', ...PhonePacingRanges.maxPerPeriod, optional: true },
  { key: 'periodMinutes', label: 'per (minutes)', ...PhonePacingRanges.periodMinutes },
  {
    key: 'minIntervalSeconds',
    label: 'Seconds between two messages',
    ...PhonePacingRanges.minIntervalSeconds,
  },
  { key: 'maxInFlight', label: 'Messages the phone may hold unsent', ...PhonePacingRanges.maxInFlight },
];

function draftOf(pacing: PhonePacing): Draft {
  return {
    maxPerPeriod: pacing.maxPerPeriod == null ? '' : String(pacing.maxPerPeriod),
    periodMinutes: String(pacing.periodMinutes),
    minIntervalSeconds: String(pacing.minIntervalSeconds),
    maxInFlight: String(pacing.maxInFlight),
  };
}

/** A whole number within the field's range; an empty optional field means "no cap". */
function parsedField(field: (typeof fields)[number], text: string): number | null | undefined {
  if (text === '') return field.optional ? null : undefined;
  const value = Number(text);
  return Number.isInteger(value) && value >= field.min && value <= field.max ? value : undefined;
}

/**
 * An Android phone's pacing on its Modems panel: how many messages the gateway hands it per
 * period (Android lets an app send about 30 SMS per 30 minutes unless the phone allows more),
 * the pause between two, and how many it may hold unsent in its own queue.
 */
export function PhonePacingForm(props: { deviceId: string }) {
  const { api } = useApp();
  const phone = useResource(() => api.phone(props.deviceId), [api, props.deviceId]);
  const [draft, setDraft] = useState<Draft>();
  const { busy, result, run } = useAction();
  useEffect(() => {
    if (phone.data) setDraft(draftOf(phone.data.pacing));
  }, [phone.data]);
  if (!draft) return null;
  const values = fields.map((field) => parsedField(field, draft[field.key]));
  const valid = values.every((value) => value !== undefined);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    const pacing = Object.fromEntries(fields.map((field, index) => [field.key, values[index]]));
    await run(async () => {
      const saved = await api.setPhonePacing(props.deviceId, pacing as Partial<PhonePacing>);
      setDraft(draftOf(saved.pacing));
      return 'Pacing saved.';
    });
  }

  return (
    <details>
      <summary>Pacing of this phone</summary>
      <form aria-label="Phone pacing" onSubmit={(event) => void save(event)}>
        <p className="muted">
          Android lets an app send about 30 SMS per 30 minutes unless you allow more on the phone. Leave "At
          most" empty for no cap.
        </p>
        {fields.map((field, index) => (
          <label key={field.key}>
            {field.label}
            <input
              inputMode="numeric"
              value={draft[field.key]}
              aria-invalid={values[index] === undefined}
              onChange={(event) => setDraft({ ...draft, [field.key]: event.target.value.trim() })}
            />
          </label>
        ))}
        <div className="form-actions">
          <button type="submit" disabled={busy || !valid}>
            Save pacing
          </button>
          <FormResult result={result} />
        </div>
      </form>
    </details>
  );
}
