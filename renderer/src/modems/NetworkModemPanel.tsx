import { type FormEvent, useState } from 'react';
import { parseTcpAddress, tcpAddressForm } from '../../../server/contract/domain/tcpAddress.js';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';

/**
 * Adds a modem behind a serial-over-IP server by its `tcp://host:port`, the address `--modem`
 * takes too. Probing never finds such a modem; the gateway keeps the address and opens it again
 * at every start. The check is the server's own (`parseTcpAddress`).
 */
export function NetworkModemPanel(props: { onAdded: () => void }) {
  const { api } = useApp();
  const [address, setAddress] = useState('');
  const { busy, result, run } = useAction();
  const valid = parseTcpAddress(address) !== undefined;

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    const added = await run(async () => {
      const device = await api.addModem(address);
      return `Added ${device.name}. It is connecting.`;
    });
    if (!added) return;
    setAddress('');
    props.onAdded();
  }

  return (
    <form className="panel" aria-label="Modem on a serial server" onSubmit={(event) => void add(event)}>
      <p className="muted">
        A modem behind a serial-over-IP server (ser2net in raw mode, a network modem) is reached over the
        network. The server sets the line speed.
      </p>
      <label>
        Serial server address
        <input
          value={address}
          placeholder="tcp://192.168.1.50:4001"
          aria-invalid={address !== '' && !valid}
          aria-describedby="network-modem-hint"
          onChange={(event) => setAddress(event.target.value.trim())}
        />
      </label>
      <p id="network-modem-hint" className="muted">
        {tcpAddressForm}: a host name or IP address (IPv6 in brackets) and a port from 1 to 65535.
      </p>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || !valid}>
          Add network modem
        </button>
        <FormResult result={result} />
      </div>
    </form>
  );
}
