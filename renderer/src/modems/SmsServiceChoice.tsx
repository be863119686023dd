import { useState } from 'react';
import type { SmsServicePreference } from '../api/types.js';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';

/** Plain words first, the standard's term after it for whoever looks it up. */
const labels: Record<SmsServicePreference, string> = {
  packet: 'Over mobile data only (packet domain)',
  circuit: 'Over the voice network only (circuit switched)',
  'packet-preferred': 'Mobile data first, else the voice network (packet preferred)',
  'circuit-preferred': 'Voice network first, else mobile data (circuit switched preferred)',
};

/**
 * The modem's SMS domain (AT+CGSMS, TS 27.007 §10.1.20). On an LTE network without 2G/3G a
 * modem set to "circuit switched only" may fail every send; "packet preferred" usually works.
 */
export function SmsServiceChoice(props: {
  deviceId: string;
  current: SmsServicePreference | undefined;
  options: SmsServicePreference[];
  onDone: () => void;
}) {
  const { api } = useApp();
  const [chosen, setChosen] = useState<SmsServicePreference | ''>(props.current ?? '');
  const { busy, result, run } = useAction();

  async function apply(service: SmsServicePreference) {
    setChosen(service);
    const done = await run(async () => {
      await api.setSmsService(props.deviceId, service);
      return `SMS now go over: ${labels[service].toLowerCase()}.`;
    });
    if (done) props.onDone();
  }

  return (
    <span className="inline-form">
      <select
        aria-label="SMS service preference"
        value={chosen}
        disabled={busy}
        onChange={(event) => void apply(event.target.value as SmsServicePreference)}
      >
        {props.current === undefined && <option value="">Unknown</option>}
        {props.options.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </select>
      <FormResult result={result} />
    </span>
  );
}
