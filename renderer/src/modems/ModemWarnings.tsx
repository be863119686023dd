import { useApp } from '../appContext.js';
import { useLiveEvent } from '../live/LiveEvents.js';
import { useResource } from '../useResource.js';
import { isStorageNearlyFull } from './ModemFigures.js';
import { modemLabel } from './modemLabel.js';

/**
 * One report can be lost on the way; several missing ones from one modem mean it stopped
 * passing them on (its storage filled, or it was reset and forgot `AT+CNMI`).
 */
const OVERDUE_REPORTS_WARNING = 3;

/**
 * Warnings about modems shown above every screen: a low balance, a nearly full SIM, delivery
 * reports that stopped arriving.
 */
export function ModemWarnings() {
  const { api } = useApp();
  const devices = useResource(() => api.devices(), [api]);
  useLiveEvent('device', devices.reload);
  const warnings = (devices.data ?? []).flatMap((device) => {
    const lines: string[] = [];
    const name = modemLabel(device);
    const balance = device.modem?.balance;
    if (balance?.low) lines.push(`Low balance on ${name}: ${balance.amount ?? balance.answer}.`);
    const full = device.modem?.messageStorage?.filter(isStorageNearlyFull) ?? [];
    if (full.length > 0) lines.push(`Message storage nearly full on ${name}.`);
    const reports = device.modem?.deliveryReports;
    if (reports && reports.overdue >= OVERDUE_REPORTS_WARNING) {
      lines.push(
        `Delivery reports stopped arriving from ${name}: ${reports.overdue.toLocaleString()} messages sent over an hour ago have none. Check its message storage on the Modems screen.`,
      );
    }
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
