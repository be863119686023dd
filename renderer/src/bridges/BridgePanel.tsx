import type { BridgeName, BridgeStatus } from '../api/types.js';
import { useApp } from '../appContext.js';
import { ErrorNote, FormResult } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

const testLabels: Record<BridgeName, string> = {
  smtp: 'Test the SMTP listener',
  email: 'Send a test mail',
  smpp: 'Test the SMPP server',
};

type ListenerName = keyof BridgeStatus;

/** The state of one listener as one line (the Settings screen and the status bar say it alike). */
export function listenerStateText(name: ListenerName, state: BridgeStatus[ListenerName]): string {
  const what = name === 'smtp' ? 'E-mail to SMS' : 'SMPP server';
  switch (state.state) {
    case 'off':
      return `${what} is off.`;
    case 'listening':
      return `${what} listening on ${state.host}:${state.port}.`;
    case 'failed':
      return `${what} could not start: ${state.error}`;
  }
}

/** Under a bridge's settings: its state (listeners) and a test of this direction. */
export function BridgePanel(props: { name: BridgeName }) {
  const { api } = useApp();
  const status = useResource(() => api.bridges(), [api]);
  const test = useAction();
  const { name } = props;
  const runTest = () =>
    test.run(async () => {
      const result = await api.testBridge(name);
      status.reload();
      if (!result.ok) throw new Error(result.detail);
      return `It works: ${result.detail}`;
    });
  return (
    <div className="bridge-status">
      {status.error !== undefined && <ErrorNote error={status.error} onRetry={status.reload} />}
      {name !== 'email' && status.data && (
        <p className="hint" role="status">
          {listenerStateText(name, status.data[name])}
        </p>
      )}
      <button type="button" onClick={() => void runTest()} disabled={test.busy}>
        {test.busy ? 'Testing…' : testLabels[name]}
      </button>
      <FormResult result={test.result} />
    </div>
  );
}
