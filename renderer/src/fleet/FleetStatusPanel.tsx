import { useState } from 'react';
import { useApp } from '../appContext.js';
import { CopyButton } from '../components/CopyButton.js';
import { Banner, ErrorNote, FormResult } from '../components/StatusViews.js';
import { formatRelative } from '../format/timeFormat.js';
import { useAction } from '../useAction.js';
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
      {fleet.createdUserPasswordWaiting && <CreatedUserBanner login={fleet.login ?? ''} />}
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

/**
 * The gateway hands the created user's password out once, so it is fetched only when
 * asked for and kept here until the panel closes: the status polled behind it no longer has it.
 */
function CreatedUserBanner(props: { login: string }) {
  const { api } = useApp();
  const [password, setPassword] = useState<string | undefined>(undefined);
  const { busy, result, run } = useAction();
  const reveal = () =>
    run(async () => {
      setPassword((await api.revealCreatedFleetUser()).password);
      return undefined;
    });
  return (
    <Banner tone="warn" title={`The server created the user ${props.login} for this gateway.`}>
      {password === undefined ? (
        <>
          Its password is shown once, here, and the server never shows it again.{' '}
          <button type="button" disabled={busy} onClick={() => void reveal()}>
            Show the password
          </button>
          <FormResult result={result} />
        </>
      ) : (
        <>
          Its password is <code>{password}</code> <CopyButton text={password} /> — note it now: it is not
          shown again.
        </>
      )}
    </Banner>
  );
}
