import { type FormEvent, useState } from 'react';
import { ussdCodePattern } from '../../../server/contract/schemas/modemOperationsSchemas.js';
import type { BalanceReading, UssdExchange } from '../api/types.js';
import { useApp } from '../appContext.js';
import { ErrorNote, FormResult } from '../components/StatusViews.js';
import { formatRelative } from '../format/timeFormat.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

/**
 * The modem card's USSD box: the last balance, a code to send (`*100#`), the recent answers, and
 * for a menu the network keeps open, a reply field and Cancel (AT+CUSD=2).
 */
export function UssdPanel(props: {
  deviceId: string;
  /** The modem as staff know it (`modemLabel`): names the box apart from other modems'. */
  modemName: string;
  balance: BalanceReading | undefined;
}) {
  const { api } = useApp();
  const recent = useResource(() => api.recentUssd(props.deviceId), [api, props.deviceId]);
  const [code, setCode] = useState('');
  const [reply, setReply] = useState('');
  const send = useAction();
  const latest = recent.data?.[0];
  const waiting = latest?.state === 'waiting' ? latest : undefined;
  const validCode = ussdCodePattern.test(code);

  async function submit(event: FormEvent, text: string, sessionId?: string) {
    event.preventDefault();
    const sent = await send.run(async () => {
      await api.ussd(props.deviceId, text, sessionId);
      return undefined;
    });
    if (!sent) return;
    setCode('');
    setReply('');
    recent.reload();
  }

  async function cancel(sessionId: string) {
    const cancelled = await send.run(async () => {
      await api.cancelUssd(props.deviceId, sessionId);
      return 'Session cancelled.';
    });
    if (cancelled) recent.reload();
  }

  return (
    <section className="subpanel ussd-panel" aria-label={`USSD of ${props.modemName}`}>
      <h3>USSD and balance</h3>
      <p>
        <strong>Balance:</strong>{' '}
        {props.balance ? (
          <>
            {/* The network's answer as it came: it carries the currency the amount alone lacks. */}
            {props.balance.answer}{' '}
            <span className="muted">({formatRelative(props.balance.at, Date.now())})</span>
            {props.balance.low && <span className="badge badge-warn"> low</span>}
          </>
        ) : (
          <span className="muted">
            no scheduled check yet: set a balance code under “Balance &amp; calls” (a code sent here is not
            remembered as the balance)
          </span>
        )}
      </p>
      <form className="inline-form" onSubmit={(event) => void submit(event, code)}>
        <label>
          USSD code
          <input
            value={code}
            placeholder="*100#"
            aria-invalid={code !== '' && !validCode}
            onChange={(event) => setCode(event.target.value.trim())}
          />
        </label>
        <button type="submit" className="primary" disabled={send.busy || !validCode}>
          {send.busy ? 'Waiting for the network…' : 'Send code'}
        </button>
      </form>
      {waiting?.sessionId && (
        <form className="inline-form" onSubmit={(event) => void submit(event, reply, waiting.sessionId)}>
          <label>
            Reply to the menu
            <input value={reply} onChange={(event) => setReply(event.target.value)} />
          </label>
          <button type="submit" disabled={send.busy || reply === ''}>
            Reply
          </button>
          <button type="button" onClick={() => void cancel(waiting.sessionId ?? '')} disabled={send.busy}>
            Cancel session
          </button>
        </form>
      )}
      <FormResult result={send.result} />
      {recent.error !== undefined && <ErrorNote error={recent.error} onRetry={recent.reload} />}
      {recent.data && recent.data.length > 0 && (
        <ol className="ussd-answers" aria-label="Recent USSD answers">
          {recent.data.map((exchange) => (
            <UssdAnswerRow key={exchange.id} exchange={exchange} />
          ))}
        </ol>
      )}
    </section>
  );
}

function UssdAnswerRow(props: { exchange: UssdExchange }) {
  const { exchange } = props;
  return (
    <li>
      <span className="mono">{exchange.request}</span> → {exchange.answer || <em>(no text)</em>}{' '}
      <span className="muted">
        {formatRelative(exchange.at, Date.now())}
        {exchange.state === 'waiting' ? ' · waiting for your reply' : ''}
      </span>
    </li>
  );
}
