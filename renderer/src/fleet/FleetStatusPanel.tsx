import { Banner, ErrorNote } from '../components/StatusViews.js';
import { formatRelative } from '../format/timeFormat.js';
import { fleetStateLabels, useFleetStatus } from './useFleetStatus.js';

/** Under the fleet settings: how the link to the private server is doing. */
export function FleetStatusPanel() {
  const status = useFleetStatus();
  const fleet = status.data;
  if (status.error !== undefined) return <ErrorNote error={status.error} onRetry={status.reload} />;
  if (!fleet) return null;
  if (!fleet.enabled) {
    return (
      <p className="hint" role="status">
        {fleet.problem ??
          'Fleet mode is off: set the server address and the registration credential to turn it on.'}
        {fleet.unreportedStates > 0 && ` ${fleet.unreportedStates} state reports wait for the server.`}
      </p>
    );
  }
  const shown = fleet.state ? fleetStateLabels[fleet.state] : undefined;
  return (
    <div className="fleet-status" role="status" aria-label="Fleet mode status">
      {fleet.createdUserPassword && (
        <Banner tone="warn" title={`The server created the user ${fleet.login ?? ''} for this gateway.`}>
          Its password is <code>{fleet.createdUserPassword}</code> — note it now: it is shown only until the
          gateway restarts, and the server never shows it again.
        </Banner>
      )}
      <dl className="facts">
        <dt>Link</dt>
        <dd>
          <span className={`badge badge-${shown?.tone ?? 'muted'}`}>{shown?.label ?? 'Unknown'}</span>
          {fleet.lastError && <span className="hint"> {fleet.lastError}</span>}
        </dd>
        <dt>Device id on the server</dt>
        <dd>{fleet.deviceId ? <code>{fleet.deviceId}</code> : '—'}</dd>
        <dt>User</dt>
        <dd>{fleet.login ?? '—'}</dd>
        <dt>Last exchange</dt>
        <dd>{formatRelative(fleet.lastExchangeAt, Date.now())}</dd>
        <dt>State reports not yet taken by the server</dt>
        <dd>{fleet.unreportedStates}</dd>
      </dl>
    </div>
  );
}
