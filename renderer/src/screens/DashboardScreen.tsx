import { useEffect, useRef } from 'react';
import { describePortRefusal } from '../../../server/contract/domain/portRefusal.js';
import type { DeviceRecord, GatewayStatus, RefusedPortInfo } from '../api/types.js';
import { useApp } from '../appContext.js';
import { ModemStatusBadge, SignalBars } from '../components/Badges.js';
import { DailyChart } from '../components/DailyChart.js';
import { ListView } from '../components/ListView.js';
import { Writes } from '../components/RoleLimit.js';
import { Banner, EmptyState, ErrorNote, FormResult } from '../components/StatusViews.js';
import { formatNumber } from '../format/numberFormat.js';
import { formatDateTime, formatRelative } from '../format/timeFormat.js';
import { useLiveEvent } from '../live/LiveEvents.js';
import { lastSeenText, modemLabel, modemLabelById } from '../modems/modemLabel.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

/** Status refresh period: the queue and hold reasons change without a live event of their own. */
const statusPollMs = 5000;

export function DashboardScreen() {
  const { api } = useApp();
  const status = useResource(() => api.status(), [api]);
  const devices = useResource(() => api.devices(), [api]);
  const stats = useResource(() => api.dailyStats(14), [api]);
  const refused = useResource(() => api.refusedPorts(), [api]);

  const refreshStatus = status.reload;
  const refreshStats = stats.reload;
  useEffect(() => {
    const timer = setInterval(refreshStatus, statusPollMs);
    return () => clearInterval(timer);
  }, [refreshStatus]);

  // Message changes come in bursts; re-read the counters at most once a second.
  const pendingRefresh = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const refreshCounters = () => {
    if (pendingRefresh.current !== undefined) return;
    pendingRefresh.current = setTimeout(() => {
      pendingRefresh.current = undefined;
      refreshStatus();
      refreshStats();
    }, 1000);
  };
  useEffect(() => () => clearTimeout(pendingRefresh.current), []);
  useLiveEvent('message', refreshCounters);
  useLiveEvent('incoming', refreshCounters);
  useLiveEvent('device', devices.reload);
  useLiveEvent('refused-ports', refused.reload);

  // Days are the gateway PC's local days, oldest first: the last one is the gateway's today even
  // when this browser's zone is already on another date.
  const today = stats.data?.at(-1);

  return (
    <>
      <header className="page-head">
        <h1>Dashboard</h1>
        {status.data && (
          <Writes scope="settings:write">
            <PauseControl status={status.data} onChanged={refreshStatus} />
          </Writes>
        )}
      </header>
      {status.error !== undefined && !status.data && (
        <ErrorNote title="Gateway status unavailable." error={status.error} onRetry={refreshStatus} />
      )}
      <Banners status={status.data} devices={devices.data} refused={refused.data} />

      <section className="tiles" aria-label="Today">
        <Tile
          label="In queue"
          value={status.data ? status.data.scheduler.pending + status.data.scheduler.sending : undefined}
          hint={status.data ? `${status.data.scheduler.sending} sending now` : undefined}
        />
        <Tile label="Sent today" value={stats.data ? (today?.sent ?? 0) : undefined} />
        <Tile label="Delivered today" value={stats.data ? (today?.delivered ?? 0) : undefined} />
        <Tile
          label="Failed today"
          value={stats.data ? (today?.failed ?? 0) : undefined}
          hint="messages with a failed recipient"
          tone={today && today.failed > 0 ? 'error' : undefined}
        />
        <Tile label="Received today" value={stats.data ? (today?.received ?? 0) : undefined} />
      </section>

      <section className="panel" aria-labelledby="modems-title">
        <h2 id="modems-title">Modems</h2>
        <ListView
          read={devices}
          items={devices.data}
          what="modems"
          empty={
            <EmptyState title="No modem is connected.">
              Plug in a USB GSM modem, then add it on the <a href="#/modems">Modems</a> screen.
            </EmptyState>
          }
        >
          {(connected) => (
            <div className="modem-cards">
              {connected.map((device) => (
                <ModemCard key={device.id} device={device} />
              ))}
            </div>
          )}
        </ListView>
      </section>

      <section className="panel" aria-labelledby="chart-title">
        <h2 id="chart-title">Last 14 days</h2>
        <ListView
          read={stats}
          items={stats.data}
          what="statistics"
          empty={<EmptyState title="No traffic yet." />}
        >
          {(days) => <DailyChart days={days} />}
        </ListView>
      </section>
    </>
  );
}

function Tile(props: { label: string; value: number | undefined; hint?: string; tone?: 'error' }) {
  return (
    <div className={`tile${props.tone ? ` tile-${props.tone}` : ''}`}>
      <div className="tile-value">{props.value === undefined ? '–' : formatNumber(props.value)}</div>
      <div className="tile-label">{props.label}</div>
      {props.hint && <div className="tile-hint muted">{props.hint}</div>}
    </div>
  );
}

function ModemCard(props: { device: DeviceRecord }) {
  const { device } = props;
  const modem = device.modem;
  return (
    <article className="modem-card">
      <header>
        <strong>{modemLabel(device)}</strong>
        <ModemStatusBadge status={modem?.status} reason={modem?.statusReason} />
      </header>
      <dl className="facts">
        <dt>Signal</dt>
        <dd>
          <SignalBars bars={modem?.signal?.bars} dbm={modem?.signal?.dbm} />
        </dd>
        <dt>Operator</dt>
        <dd>{modem?.operator ?? '—'}</dd>
        <dt>SIM</dt>
        <dd>{modem?.simState ?? '—'}</dd>
        <dt>Port</dt>
        <dd>{modem?.simulated ? 'Simulated modem' : (modem?.port ?? '—')}</dd>
        <dt>Last seen</dt>
        <dd>{lastSeenText(device, Date.now())}</dd>
      </dl>
      {modem?.statusDetail && <p className="muted small">{modem.statusDetail}</p>}
    </article>
  );
}

function Banners(props: {
  status: GatewayStatus | undefined;
  devices: DeviceRecord[] | undefined;
  refused: RefusedPortInfo[] | undefined;
}) {
  const { status, devices, refused } = props;
  const pinNeeded = devices?.filter(
    (device) => device.modem?.status === 'sim-pin-required' || device.modem?.status === 'sim-pin-wrong',
  );
  const holding = status?.scheduler.holding;
  return (
    <div className="banners">
      {devices && devices.length === 0 && (
        <Banner tone="error" title="No modem is connected.">
          Messages wait in the queue until a modem is available. <a href="#/modems">Add a modem</a>.
        </Banner>
      )}
      {refused && refused.length > 0 && (
        <Banner tone="error" title="A modem port cannot be opened.">
          {refused.map(describePortRefusal).join(' ')} <a href="#/modems">Modems</a>.
        </Banner>
      )}
      {pinNeeded && pinNeeded.length > 0 && (
        <Banner tone="error" title="A SIM card needs its PIN.">
          {pinNeeded.map(modemLabel).join(', ')}: <a href="#/modems">enter the PIN on the Modems screen</a>.
        </Banner>
      )}
      {holding && holding.reason === 'rate-limit' && (
        <Banner tone="warn" title="The sending limit is holding messages back.">
          {holding.detail}
          {holding.nextAttemptAt !== undefined &&
            ` Next attempt ${formatRelative(holding.nextAttemptAt, Date.now())}.`}{' '}
          <a href="#/settings">Change the limit</a>.
        </Banner>
      )}
      {holding && holding.reason === 'plan-cap' && (
        <Banner tone="warn" title="A SIM plan's cap is holding messages back.">
          SIM {holding.simNumber} of {modemLabelById(devices, holding.deviceId)} has used its cap; messages
          for it wait until {formatDateTime(holding.nextAttemptAt)}. <a href="#/modems">See its plan</a>.
        </Banner>
      )}
      {holding && !['rate-limit', 'no-modem', 'plan-cap'].includes(holding.reason) && (
        <Banner tone="info" title="Messages are waiting.">
          {holding.detail}
        </Banner>
      )}
    </div>
  );
}

function PauseControl(props: { status: GatewayStatus; onChanged: () => void }) {
  const { api } = useApp();
  const { busy, result, run } = useAction();
  async function toggle() {
    const changed = await run(async () => {
      await api.setSendingPaused(!props.status.sendingPaused);
      return undefined;
    });
    if (changed) props.onChanged();
  }
  return (
    <div className="head-actions">
      <FormResult result={result} />
      <button type="button" disabled={busy} onClick={() => void toggle()}>
        {props.status.sendingPaused ? 'Resume sending' : 'Pause sending'}
      </button>
    </div>
  );
}
