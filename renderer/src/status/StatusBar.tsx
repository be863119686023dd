import { useEffect, useState } from 'react';
import { useApp } from '../appContext.js';
import { listenerStateText } from '../bridges/BridgePanel.js';
import { plainNetworkError } from '../format/networkErrors.js';
import { formatNumber } from '../format/numberFormat.js';
import { formatTime } from '../format/timeFormat.js';
import { useLiveEvent } from '../live/LiveEvents.js';
import { modemLabel } from '../modems/modemLabel.js';
import { useResource } from '../useResource.js';
import { modemNotices, type StatusItem } from './modemNotices.js';

/** How often the bar re-reads the gateway status: pause and webhook failures have no live event. */
const statusPollMs = 5000;
/** Up to this many lines show at once; more fold behind one "N more" button. */
const linesShown = 2;
const toneOrder: Record<StatusItem['tone'], number> = { error: 0, warn: 1, info: 2 };

/** A mail the relay has not taken for this long is news: forwarding is not working. */
const mailWaitNewsMs = 15 * 60_000;

/** The deliveries beside webhooks (which have their own line), as people call them. */
const deliveryNames = {
  mail: ['forwarded mail', 'forwarded mails'],
  smpp: ['SMPP delivery', 'SMPP deliveries'],
  'fleet-report': ['state report to the private server', 'state reports to the private server'],
} as const;

/**
 * One bar on every screen for what changes how everything else must be read: the gateway is not
 * answering (so what is shown may be out of date), a simulated modem is in use, sending is
 * paused, webhook deliveries or other owed deliveries are failing, a modem needs attention; and
 * which ways in beside HTTP (SMTP, SMPP) are open. One line each, the gravest first; past
 * `linesShown` the rest fold behind one button, so the screen's own heading stays in view.
 */
export function StatusBar(props: { staleSince: number | undefined }) {
  const { api } = useApp();
  const status = useResource(() => api.status(), [api]);
  const devices = useResource(() => api.devices(), [api]);
  const bridges = useResource(() => api.bridges(), [api]);
  const reloadStatus = status.reload;
  const reloadBridges = bridges.reload;
  useEffect(() => {
    const timer = setInterval(() => {
      reloadStatus();
      reloadBridges();
    }, statusPollMs);
    return () => clearInterval(timer);
  }, [reloadStatus, reloadBridges]);
  useLiveEvent('device', devices.reload);

  const simulated = devices.data?.filter((device) => device.modem?.simulated) ?? [];
  const webhooks = status.data?.webhooks;
  // The status names a failing webhook by id only (its URL may hold a secret); the
  // window may read the webhooks, so it shows people the URL they know it by.
  const failedHookId = webhooks?.lastFailure?.webhookId;
  const hooks = useResource(
    async () => (failedHookId === undefined ? [] : api.webhooks()),
    [api, failedHookId],
  );
  const failedHook = hooks.data?.find((hook) => hook.id === failedHookId)?.url ?? `webhook ${failedHookId}`;
  const [expanded, setExpanded] = useState(false);
  const items: StatusItem[] = [];
  if (props.staleSince !== undefined) {
    items.push({
      key: 'unreachable',
      tone: 'error',
      text: `Gateway unreachable since ${formatTime(props.staleSince)}: what this screen shows may be out of date.`,
    });
  }
  if (simulated.length > 0) {
    items.push({
      key: 'simulated',
      tone: 'warn',
      text: `Simulated modem in use (${simulated.map(modemLabel).join(', ')}): nothing reaches real phones.`,
      link: { href: '#/modems', label: 'Modems' },
    });
  }
  if (status.data?.sendingPaused) {
    items.push({
      key: 'paused',
      tone: 'warn',
      text: 'Sending is paused: new messages wait in the queue.',
      link: { href: '#/dashboard', label: 'Resume on the Dashboard' },
    });
  }
  if (webhooks && webhooks.failedLastHour > 0) {
    const last = webhooks.lastFailure;
    items.push({
      key: 'webhooks',
      tone: 'error',
      text: `${formatNumber(webhooks.failedLastHour)} webhook deliver${webhooks.failedLastHour === 1 ? 'y' : 'ies'} failed in the last hour${last ? ` (last: ${failedHook} — ${plainNetworkError(last.error)})` : ''}.`,
      link: { href: '#/webhooks', label: 'Webhooks' },
    });
  }
  const outbox = status.data?.outbox;
  for (const kind of ['mail', 'smpp', 'fleet-report'] as const) {
    const given = outbox?.[kind]?.givenUpLastHour ?? 0;
    if (given === 0) continue;
    const [one, many] = deliveryNames[kind];
    items.push({
      key: `given-up-${kind}`,
      tone: 'error',
      text: `${formatNumber(given)} ${given === 1 ? one : many} given up in the last hour.`,
      link: { href: '#/logs', label: 'Logs' },
    });
  }
  const mail = outbox?.mail;
  if (mail?.oldestPendingAt !== undefined && Date.now() - mail.oldestPendingAt > mailWaitNewsMs) {
    items.push({
      key: 'mail-waiting',
      tone: 'warn',
      text: `${formatNumber(mail.pending)} ${mail.pending === 1 ? 'forwarded mail waits' : 'forwarded mails wait'} for the mail relay since ${formatTime(mail.oldestPendingAt)}.`,
      link: { href: '#/settings', label: 'Settings' },
    });
  }
  for (const name of ['smtp', 'smpp'] as const) {
    const state = bridges.data?.[name];
    if (!state || state.state === 'off') continue;
    items.push({
      key: name,
      tone: state.state === 'failed' ? 'error' : 'info',
      text: listenerStateText(name, state),
      link: { href: '#/settings', label: 'Settings' },
    });
  }
  items.push(...modemNotices(devices.data ?? [], Date.now()));
  if (items.length === 0) return null;
  const ordered = items.sort((left, right) => toneOrder[left.tone] - toneOrder[right.tone]);
  const folds = ordered.length > linesShown;
  const shown = folds && !expanded ? ordered.slice(0, 1) : ordered;
  return (
    <section className="status-bar" aria-label="Gateway status">
      <ul id="status-lines">
        {shown.map((item) => (
          <li key={item.key} className={`status-item status-${item.tone}`} data-status={item.key}>
            {item.text}
            {item.link && (
              <>
                {' '}
                <a href={item.link.href}>{item.link.label}</a>
              </>
            )}
          </li>
        ))}
      </ul>
      {folds && (
        <button
          type="button"
          className="link-button"
          aria-expanded={expanded}
          aria-controls="status-lines"
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Show less' : `${ordered.length - 1} more`}
        </button>
      )}
    </section>
  );
}
