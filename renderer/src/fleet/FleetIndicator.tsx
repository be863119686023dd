import { fleetStateLabels, useFleetStatus } from './useFleetStatus.js';

/** The status bar's fleet line: shown only while fleet mode is on. */
export function FleetIndicator() {
  const fleet = useFleetStatus().data;
  if (!fleet?.enabled || !fleet.state) return null;
  const shown = fleetStateLabels[fleet.state];
  const waiting = fleet.unreportedStates > 0 ? ` · ${fleet.unreportedStates} unreported` : '';
  return (
    <span role="status">
      {/* The badge inside the link: the sidebar's light link colour must not replace its own. */}
      <a href="#/settings" title={`Private server ${fleet.serverUrl ?? ''}`}>
        <span className={`badge badge-${shown.tone}`}>
          Server: {shown.label}
          {waiting}
        </span>
      </a>
    </span>
  );
}
