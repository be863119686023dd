import { useEffect } from 'react';
import { useApp } from '../appContext.js';
import { listenerStateText } from '../bridges/BridgePanel.js';
import { plainNetworkError } from '../format/networkErrors.js';
import { formatNumber } from '../format/numberFormat.js';
import { formatTime } from '../format/timeFormat.js';
import { useLiveEvent } from '../live/LiveEvents.js';
import { useResource } from '../useResource.js';

/** How often the bar re-reads the gateway status: pause and webhook failures have no live event. */
const statusPollMs = 5000;

/**
 * One bar on every screen for what changes how everything else must be read: the gateway is not
 * answering (so what is shown may be out of date), a simulated modem is in use, sending is
 * paused, webhook deliveries are failing; and which ways in beside HTTP (SMTP, SMPP) are open.
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
  const items: {
    key: string;
    tone: 'info' | 'warn' | 'error';
    text: string;
    link?: { href: string; label: string };
  }[] = [];
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
      text: `Simulated modem in use (${simulated.map((device) => device.name).join(', ')}): nothing reaches real phones.`,
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
  if (items.length === 0) return null;
  return (
    <section className="status-bar" aria-label="Gateway status">
      <ul>
        {items.map((item) => (
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
    </section>
  );
}
