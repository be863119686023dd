import { useApp } from '../appContext.js';
import { formatTime, toEpochMs } from '../format/timeFormat.js';
import { useLiveEvent } from '../live/LiveEvents.js';
import { useResource } from '../useResource.js';
import { isStorageNearlyFull } from './ModemFigures.js';
import { modemLabel } from './modemLabel.js';

/**
 * One report can be lost on the way; several missing ones from one modem mean it stopped
 * passing them on (its storage filled, or it was reset and forgot `AT+CNMI`).
 */
const OVERDUE_REPORTS_WARNING = 3;

/** How long after the storage was last found full its refused reports are still news. */
const REFUSED_REPORTS_SHOWN_MS = 60 * 60_000;

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
    const refused = device.modem?.reportsRefused;
    if (refused && Date.now() - toEpochMs(refused.at) < REFUSED_REPORTS_SHOWN_MS) {
      lines.push(
        `Delivery reports are being lost on ${name}: its message storage (${refused.memory}) was full at ${formatTime(refused.at)}, so the modem refused the reports that came then. Messages sent around then may never show Delivered; their details say so. Free the storage on the Modems screen.`,
      );
    }
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
