import { type FormEvent, useState } from 'react';
import { hilinkUrlPattern } from '../../../server/contract/schemas/gatewaySchemas.js';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';

/**
 * Adds a Huawei HiLink (router-mode) stick by its web API URL. Such a stick is a network
 * adapter without a serial port, so probing never finds it; `detected` names the adapter the
 * gateway saw, when it saw one.
 */
export function HiLinkPanel(props: {
  detected?: { interfaceName: string; url: string };
  onAdded: () => void;
}) {
  const { api } = useApp();
  const [url, setUrl] = useState(props.detected?.url ?? 'http://192.168.8.1');
  const { busy, result, run } = useAction();
  const valid = hilinkUrlPattern.test(url);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    const added = await run(async () => {
      const device = await api.addHiLink(url);
      return `Added ${device.name}.`;
    });
    if (added) props.onAdded();
  }

  return (
    <form className="panel" aria-label="HiLink stick" onSubmit={(event) => void add(event)}>
      {props.detected ? (
        <p className="note note-warn">
          A Huawei HiLink stick seems connected (network adapter “{props.detected.interfaceName}”). It has no
          AT port, so it is not in use yet: add it here to send and receive through its web API.
        </p>
      ) : (
        <p className="muted">
          A Huawei HiLink stick (E3372h-320, E8372) works through its web API instead of AT commands.
        </p>
      )}
      <p className="muted">Through the web API there are no delivery reports and no data SMS.</p>
      <label>
        Web API address
        <input value={url} aria-invalid={!valid} onChange={(event) => setUrl(event.target.value.trim())} />
      </label>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || !valid}>
          Add HiLink stick
        </button>
        <FormResult result={result} />
      </div>
    </form>
  );
}
