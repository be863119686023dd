import type { DeviceRecord } from '../api/types.js';
import { formatTime, toEpochMs } from '../format/timeFormat.js';
import { isStorageNearlyFull } from '../modems/ModemFigures.js';
import { modemLabel } from '../modems/modemLabel.js';

/** One line of the status bar: what it says, how grave it is, and where to act on it. */
export interface StatusItem {
  key: string;
  tone: 'info' | 'warn' | 'error';
  text: string;
  link?: { href: string; label: string };
}

/**
 * One report can be lost on the way; several missing ones from one modem mean it stopped
 * passing them on (its storage filled, or it was reset and forgot `AT+CNMI`).
 */
const OVERDUE_REPORTS_WARNING = 3;

/** How long after the storage was last found full its refused reports are still news. */
const REFUSED_REPORTS_SHOWN_MS = 60 * 60_000;

/**
 * Reading a modem's storage into the inbox deletes each message from it (AT+CMGD): the one
 * action in the window that frees it.
 */
const freeStorage = { href: '#/inbox', label: 'Free it: Inbox → Re-read modem storage' };

/** What staff must know about the modems, one line each: low balance, full storage, lost reports. */
export function modemNotices(devices: readonly DeviceRecord[], now: number): StatusItem[] {
  return devices.flatMap((device) => {
    const name = modemLabel(device);
    const modem = device.modem;
    const items: StatusItem[] = [];
    const balance = modem?.balance;
    if (balance?.low) {
      items.push({
        key: `${device.id}:balance`,
        tone: 'warn',
        text: `Low balance on ${name}: ${balance.amount ?? balance.answer}.`,
        link: { href: '#/modems', label: 'Modems' },
      });
    }
    if (modem?.messageStorage?.some(isStorageNearlyFull)) {
      items.push({
        key: `${device.id}:storage`,
        tone: 'warn',
        text: `Message storage nearly full on ${name}.`,
        link: freeStorage,
      });
    }
    const refused = modem?.reportsRefused;
    if (refused && now - toEpochMs(refused.at) < REFUSED_REPORTS_SHOWN_MS) {
      items.push({
        key: `${device.id}:reports-refused`,
        tone: 'warn',
        text: `Delivery reports are being lost on ${name}: its storage (${refused.memory}) was full at ${formatTime(refused.at)}; messages sent then may never show Delivered.`,
        link: freeStorage,
      });
    }
    const reports = modem?.deliveryReports;
    if (reports && reports.overdue >= OVERDUE_REPORTS_WARNING) {
      items.push({
        key: `${device.id}:reports-overdue`,
        tone: 'warn',
        text: `Delivery reports stopped arriving from ${name}: ${reports.overdue.toLocaleString()} messages sent over an hour ago have none.`,
        link: freeStorage,
      });
    }
    return items;
  });
}
