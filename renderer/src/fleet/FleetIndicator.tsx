import { fleetStateLabels, useFleetStatus } from './useFleetStatus.js';

/** The status bar's fleet line: shown only while fleet mode is on. */
export function FleetIndicator() {
  const fleet = useFleetStatus().data;
  if (!fleet?.enabled || !fleet.state) return null;
  const shown = fleetStateLabels[fleet.state];
  const waiting = fleet.unreportedStates > 0 ? ` · ${fleet.unreportedStates} unreported` : '';
  return (
    <span role="status">
      <a
        href="#/settings"
        className={`badge badge-${shown.tone}`}
        title={`Private server ${fleet.serverUrl ?? ''}`}
      >
        Server: {shown.label}
        {waiting}
      </a>
    </span>
  );
}
