import type { DeviceStatusReason, MessageState, ModemStatus } from '../api/types.js';

const messageTone: Record<MessageState, string> = {
  Pending: 'neutral',
  Processed: 'info',
  Sent: 'info',
  Delivered: 'ok',
  Failed: 'error',
  Cancelled: 'muted',
};

export function MessageStateBadge(props: { state: MessageState }) {
  return <span className={`badge badge-${messageTone[props.state] ?? 'neutral'}`}>{props.state}</span>;
}

/** A message that went through the built-in simulated modem reached no phone: say so wherever it shows. */
export function SimulatedBadge() {
  return (
    <span
      className="badge badge-warn"
      title="Sent through the built-in simulated modem: no phone received it"
    >
      Simulated
    </span>
  );
}

/** A message the private server gave this gateway in fleet mode (its id is the server's). */
export function ServerOriginBadge() {
  return (
    <span
      className="badge badge-info"
      title="Taken from the private server in fleet mode; its states go back there"
    >
      From server
    </span>
  );
}

const modemLabels: Record<ModemStatus, { label: string; tone: string }> = {
  starting: { label: 'Starting', tone: 'neutral' },
  ready: { label: 'Ready', tone: 'ok' },
  'sim-pin-required': { label: 'SIM PIN needed', tone: 'warn' },
  'sim-pin-wrong': { label: 'Wrong SIM PIN', tone: 'error' },
  recovering: { label: 'Recovering', tone: 'warn' },
  'no-network': { label: 'No network', tone: 'error' },
  offline: { label: 'Offline', tone: 'error' },
  'not-a-modem': { label: 'Not a modem', tone: 'error' },
};

/** A reason that names the trouble better than the status does. */
const reasonLabels: Partial<Record<DeviceStatusReason, { label: string; tone: string }>> = {
  'radio-off': { label: 'Radio off', tone: 'error' },
};

export function ModemStatusBadge(props: { status: ModemStatus | undefined; reason?: DeviceStatusReason }) {
  const shown =
    (props.reason && reasonLabels[props.reason]) ?? (props.status ? modemLabels[props.status] : undefined);
  return <span className={`badge badge-${shown?.tone ?? 'muted'}`}>{shown?.label ?? 'Unknown'}</span>;
}

/** Signal as 0–4 bars (the gateway maps +CSQ RSSI to bars, TS 27.007 §8.5). */
export function SignalBars(props: { bars: number | undefined; dbm?: number }) {
  const bars = Math.max(0, Math.min(4, props.bars ?? 0));
  const label =
    props.bars === undefined
      ? 'No signal reading'
      : `Signal ${bars} of 4${props.dbm !== undefined ? ` (${props.dbm} dBm)` : ''}`;
  return (
    <span className="signal" role="img" aria-label={label} title={label}>
      {[1, 2, 3, 4].map((level) => (
        <span
          key={level}
          className={`signal-bar${level <= bars ? ' on' : ''}`}
          style={{ height: `${level * 25}%` }}
        />
      ))}
    </span>
  );
}
