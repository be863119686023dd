import type { DeviceRecord, ModemFiguresRecord, StorageUse } from '../api/types.js';
import { useApp } from '../appContext.js';
import { DailyChart } from '../components/DailyChart.js';
import { ErrorNote } from '../components/StatusViews.js';
import { counted } from '../format/numberFormat.js';
import { formatRelative } from '../format/timeFormat.js';
import { useResource } from '../useResource.js';
import { modemLabel } from './modemLabel.js';

/** From this share of slots used on, a memory is shown as nearly full (as the gateway warns). */
const nearlyFull = 0.8;

export function isStorageNearlyFull(use: StorageUse): boolean {
  return use.total > 0 && use.used >= use.total * nearlyFull;
}

/** Storage use, the last week's counts, the 24 h signal line and the missed calls of one modem. */
export function ModemFigures(props: { device: DeviceRecord }) {
  const { api } = useApp();
  const { device } = props;
  const figures = useResource(() => api.modemFigures(device.id), [api, device.id, device.lastSeen]);
  const calls = useResource(() => api.missedCalls(device.id), [api, device.id]);
  const record = figures.data?.[0];
  return (
    <section className="subpanel" aria-label={`Storage, figures and calls of ${modemLabel(device)}`}>
      <h3>Storage, figures and calls</h3>
      <StorageLines uses={device.modem?.messageStorage ?? []} />
      <RelayLinkLine link={device.modem?.relayLink} />
      {figures.error !== undefined && <ErrorNote error={figures.error} onRetry={figures.reload} />}
      {record && (
        <>
          <DailyChart days={record.days} />
          <SignalHistory signal={record.signal} />
        </>
      )}
      <h4>Missed calls</h4>
      {calls.error !== undefined && <ErrorNote error={calls.error} onRetry={calls.reload} />}
      {calls.data && calls.data.items.length === 0 && <p className="muted">No calls.</p>}
      {calls.data && calls.data.items.length > 0 && (
        <ul aria-label="Missed calls">
          {calls.data.items.map((call) => (
            <li key={call.id}>
              <span className="mono">{call.phoneNumber ?? 'withheld'}</span>{' '}
              <span className="muted">
                {formatRelative(call.calledAt, Date.now())}
                {call.rejected ? ' · hung up' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function StorageLines(props: { uses: StorageUse[] }) {
  if (props.uses.length === 0) return <p className="muted">Storage use not known.</p>;
  return (
    <ul aria-label="Message storage">
      {props.uses.map((use) => (
        <li key={use.memory} className={isStorageNearlyFull(use) ? 'note note-warn' : undefined}>
          {memoryName(use.memory)}: {use.used} of {use.total} used
          {isStorageNearlyFull(use) && ' — nearly full: the gateway reads it empty now'}
        </li>
      ))}
    </ul>
  );
}

/** How many parts went out on a relay link the modem kept open with +CMMS (TS 27.005 §3.5.6). */
function RelayLinkLine(props: { link: DeviceRecord['modem']['relayLink'] }) {
  const { link } = props;
  if (!link) return null;
  return (
    <p>
      {link.keptLinkSends} {link.keptLinkSends === 1 ? 'part' : 'parts'} of long messages went out over a link
      to the SMS centre kept open between them{' '}
      <span className="hint">
        (+CMMS={link.mode}:{' '}
        {link.mode === 2
          ? 'the modem keeps the link open between sends'
          : 'the modem keeps the link open while parts follow within seconds'}
        )
      </span>
    </p>
  );
}

function memoryName(memory: string): string {
  if (memory === 'SM') return 'SIM';
  if (memory === 'ME') return 'Modem memory';
  if (memory === 'SR') return 'Status reports';
  return memory;
}

const width = 480;
const height = 60;

/** RSSI 0..31 over the last 24 h as a line. */
function SignalHistory(props: { signal: ModemFiguresRecord['signal'] }) {
  if (props.signal.length === 0) return <p className="muted">No signal history yet.</p>;
  const first = Date.parse(props.signal[0]?.at ?? '');
  const span = Math.max(1, Date.now() - first);
  const points = props.signal
    .map((sample) => {
      const x = ((Date.parse(sample.at) - first) / span) * width;
      const y = height - (sample.rssi / 31) * height;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
  const last = props.signal.at(-1);
  return (
    <figure className="signal-history">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label="Signal over the last 24 hours">
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="2" />
      </svg>
      <figcaption className="muted">
        Signal, last 24 h ({counted(props.signal.length, 'sample')}; now RSSI {last?.rssi}
        {last?.dbm !== undefined ? `, ${last.dbm} dBm` : ''})
      </figcaption>
    </figure>
  );
}
