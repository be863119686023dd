import { type FormEvent, useState } from 'react';
import { useApp } from '../appContext.js';
import { EmptyState, ErrorNote, FormResult, Loading } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

/** Common modem speeds; most USB modems ignore the rate, old RS-232 ones need the right one. */
const baudRates = [9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600];

export function AddModemPanel(props: { onAdded: () => void }) {
  const { api } = useApp();
  const ports = useResource(() => api.serialPorts(), [api]);
  const [path, setPath] = useState('');
  const [baudRate, setBaudRate] = useState('');
  const { busy, result, run } = useAction();

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!path) return;
    const added = await run(async () => {
      const device = await api.addModem(path, baudRate ? Number(baudRate) : undefined);
      return `Added ${device.name}. It is starting up.`;
    });
    if (!added) return;
    setPath('');
    ports.reload();
    props.onAdded();
  }

  return (
    <section className="panel" aria-labelledby="add-modem-title">
      <div className="panel-head">
        <h2 id="add-modem-title">Add a modem</h2>
        <button type="button" className="button-small" onClick={ports.reload}>
          Scan ports again
        </button>
      </div>
      {ports.loading && !ports.data && <Loading what="serial ports" />}
      {ports.error !== undefined && <ErrorNote error={ports.error} onRetry={ports.reload} />}
      {ports.data && ports.data.length === 0 && (
        <EmptyState title="No serial ports found.">
          Plug the modem in, wait a few seconds, then scan again.
        </EmptyState>
      )}
      {ports.data && ports.data.length > 0 && (
        <form onSubmit={(event) => void add(event)}>
          <fieldset className="port-list">
            <legend>Detected serial ports</legend>
            {ports.data.map((port) => (
              <label key={port.path} className={`port-option${port.inUse ? ' disabled' : ''}`}>
                <input
                  type="radio"
                  name="port"
                  value={port.path}
                  disabled={port.inUse}
                  checked={path === port.path}
                  onChange={() => setPath(port.path)}
                />
                <span className="mono">{port.path}</span>
                <span className="muted">
                  {[
                    port.manufacturer,
                    port.vendorId && port.productId ? `${port.vendorId}:${port.productId}` : undefined,
                    port.serialNumber,
                  ]
                    .filter(Boolean)
                    .join(' · ') || 'Unknown device'}
                  {port.inUse ? ' — in use' : ''}
                </span>
              </label>
            ))}
          </fieldset>
          <div className="form-row">
            <label>
              Speed (baud)
              <select value={baudRate} onChange={(event) => setBaudRate(event.target.value)}>
                <option value="">Default</option>
                {baudRates.map((rate) => (
                  <option key={rate} value={rate}>
                    {rate}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <div className="form-actions">
            <button type="submit" className="primary" disabled={busy || !path}>
              {busy ? 'Adding…' : 'Add modem'}
            </button>
            <FormResult result={result} />
          </div>
        </form>
      )}
    </section>
  );
}
