import type { RefusedPortInfo } from '../api/types.js';
import { CopyButton } from '../components/CopyButton.js';

/**
 * Port discovery found a USB port (a modem, most likely) that this user may not open: name the
 * port, give the command that fixes it with a copy button, and keep the simulator as the other
 * choice. On Linux the serial ports belong to a group the user joins once.
 */
export function RefusedPortsNote(props: { ports: readonly RefusedPortInfo[]; onUseSimulator: () => void }) {
  const paths = props.ports.map((port) => port.path);
  const fixes = [...new Set(props.ports.flatMap((port) => (port.fix === undefined ? [] : [port.fix])))];
  return (
    <section className="panel note note-error" aria-labelledby="refused-ports-title">
      <h2 id="refused-ports-title">The modem cannot be opened</h2>
      <p>
        {paths.length === 1 ? 'A modem seems plugged in on ' : 'Modems seem plugged in on '}
        {paths.map((path, index) => (
          <span key={path}>
            {index > 0 && ', '}
            <code>{path}</code>
          </span>
        ))}
        , but the system does not let the gateway open {paths.length === 1 ? 'it' : 'them'}. Messages wait in
        the queue until it can.
      </p>
      {fixes.length > 0 ? (
        <>
          <p>
            This user may not use serial ports (permission denied). Run this in a terminal, then log out and
            back in (or restart the computer):
          </p>
          {fixes.map((fix) => (
            <p key={fix}>
              <code className="command">{fix}</code> <CopyButton text={fix} label="Copy command" />
            </p>
          ))}
        </>
      ) : (
        <p>Another program may hold the port: close it, then unplug the modem and plug it in again.</p>
      )}
      <p>
        To try the gateway meanwhile, use the simulated modem — its messages reach no phone and are marked
        Simulated. You can turn it off in Settings.
      </p>
      <div className="form-actions">
        <button type="button" onClick={props.onUseSimulator}>
          Use the simulated modem
        </button>
      </div>
    </section>
  );
}
