import { useApp } from '../appContext.js';
import { useLiveEvent } from '../live/LiveEvents.js';
import { useResource } from '../useResource.js';
import { isStorageNearlyFull } from './ModemFigures.js';

/** Warnings about modems shown above every screen: a low balance, a nearly full SIM. */
export function ModemWarnings() {
  const { api } = useApp();
  const devices = useResource(() => api.devices(), [api]);
  useLiveEvent('device', devices.reload);
  const warnings = (devices.data ?? []).flatMap((device) => {
    const lines: string[] = [];
    const balance = device.modem?.balance;
    if (balance?.low) lines.push(`Low balance on ${device.name}: ${balance.amount ?? balance.answer}.`);
    const full = device.modem?.messageStorage?.filter(isStorageNearlyFull) ?? [];
    if (full.length > 0) lines.push(`Message storage nearly full on ${device.name}.`);
    return lines.map((text) => ({ key: `${device.id}:${text}`, text }));
  });
  if (warnings.length === 0) return null;
  return (
    <div className="note note-warn" role="status" aria-label="Warnings">
      {warnings.map((warning) => (
        <p key={warning.key}>{warning.text}</p>
      ))}
    </div>
  );
}
