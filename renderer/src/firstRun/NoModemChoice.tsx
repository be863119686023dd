import { useEffect, useState } from 'react';
import type { DeviceRecord } from '../api/types.js';
import { useApp } from '../appContext.js';
import { useLiveEvent } from '../live/LiveEvents.js';
import { useResource } from '../useResource.js';
import { RefusedPortsNote } from './RefusedPortsNote.js';

/**
 * In the desktop app the simulated modem is a choice, not a fallback: while no modem or phone is
 * connected and the simulator is off, say so and offer it — or, when discovery found a port this
 * user may not open, say that and how to fix it. A modem plugged in later is found by itself and
 * this panel goes away.
 */
export function NoModemChoice() {
  const { api, desktop } = useApp();
  const devices = useResource(() => api.devices(), [api]);
  useLiveEvent('device', devices.reload);
  const refused = useResource(() => api.refusedPorts(), [api]);
  useLiveEvent('refused-ports', refused.reload);
  const [useSimulator, setUseSimulator] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    desktop?.getPreferences().then(
      (preferences) => setUseSimulator(preferences.useSimulator),
      () => setUseSimulator(undefined),
    );
  }, [desktop]);
  if (!desktop || useSimulator !== false || !devices.data || devices.data.some(isConnected)) return null;
  async function chooseSimulator() {
    const updated = await desktop?.setPreference('useSimulator', true);
    setUseSimulator(updated?.useSimulator);
  }
  if (refused.data && refused.data.length > 0) {
    return <RefusedPortsNote ports={refused.data} onUseSimulator={() => void chooseSimulator()} />;
  }
  return (
    <section className="panel note note-info" aria-labelledby="no-modem-title">
      <h2 id="no-modem-title">No modem connected</h2>
      <p>
        Messages wait in the queue until a USB modem or phone is connected: plug it in and it is found by
        itself. To try the gateway first, use the simulated modem — its messages reach no phone and are marked
        Simulated. You can turn it off in Settings.
      </p>
      <div className="form-actions">
        <button type="button" onClick={() => void chooseSimulator()}>
          Use the simulated modem
        </button>
      </div>
    </section>
  );
}

function isConnected(device: DeviceRecord): boolean {
  return (
    device.modem !== undefined && device.modem.status !== 'offline' && device.modem.status !== 'not-a-modem'
  );
}
