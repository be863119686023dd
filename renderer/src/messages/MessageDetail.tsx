import type { DeviceRecord, MessageRecord } from '../api/types.js';
import { useApp } from '../appContext.js';
import { MessageStateBadge, ServerOriginBadge, SimulatedBadge } from '../components/Badges.js';
import { FormResult } from '../components/StatusViews.js';
import { useContactNames, withName } from '../desk/useContactNames.js';
import { formatDateTime } from '../format/timeFormat.js';
import { useAction } from '../useAction.js';
import { messageText, stateTimeline } from './messageRows.js';
import { ScheduledEdit } from './ScheduledEdit.js';

/** One message opened: content, each recipient's state and error, the state timeline, cancel. */
export function MessageDetail(props: {
  message: MessageRecord;
  devices: DeviceRecord[] | undefined;
  onChanged: (message: MessageRecord) => void;
}) {
  const { api } = useApp();
  const { message } = props;
  const { busy, result, run } = useAction();
  const nameOf = useContactNames(message.recipients.map((recipient) => recipient.phoneNumber));
  const device = props.devices?.find((entry) => entry.id === message.deviceId);

  async function cancel() {
    await run(async () => {
      props.onChanged(await api.cancelMessage(message.id));
      return undefined;
    });
  }

  return (
    <div className="detail">
      <div className="detail-grid">
        <section>
          <h3>Content</h3>
          <p className="message-text">
            {messageText(message) || <span className="muted">(encrypted or empty)</span>}
          </p>
          <dl className="facts">
            <dt>ID</dt>
            <dd>
              <code>{message.id}</code>
            </dd>
            {message.source === 'server' && (
              <>
                <dt>Origin</dt>
                <dd>
                  <ServerOriginBadge />{' '}
                  <span className="hint">its states are reported to the private server</span>
                </dd>
              </>
            )}
            <dt>Modem</dt>
            <dd>
              {device?.name ?? message.deviceId ?? 'Not chosen yet'}{' '}
              {message.simulated && (
                <>
                  <SimulatedBadge />{' '}
                  <span className="hint">the built-in simulator: no phone received it</span>
                </>
              )}
            </dd>
            <dt>SIM</dt>
            <dd>{message.simNumber ?? 'By settings'}</dd>
            <dt>Priority</dt>
            <dd>{message.priority ?? 0}</dd>
            <dt>Delivery report</dt>
            <dd>{message.withDeliveryReport === false ? 'No' : 'Requested'}</dd>
            {message.scheduleAt && (
              <>
                <dt>Scheduled for</dt>
                <dd>{formatDateTime(message.scheduleAt)}</dd>
              </>
            )}
            {message.validUntil && (
              <>
                <dt>Valid until</dt>
                <dd>{formatDateTime(message.validUntil)}</dd>
              </>
            )}
          </dl>
        </section>
        <section>
          <h3>Recipients</h3>
          <ul className="plain">
            {message.recipients.map((recipient) => (
              <li key={recipient.phoneNumber}>
                <span className="mono">{withName(recipient.phoneNumber, nameOf(recipient.phoneNumber))}</span>{' '}
                <MessageStateBadge state={recipient.state} />
                {recipient.error && <div className="form-error">{recipient.error}</div>}
              </li>
            ))}
          </ul>
          <h3>Timeline</h3>
          <ol className="timeline">
            {stateTimeline(message).map((step) => (
              <li key={step.state}>
                <span className="timeline-state">{step.state}</span>
                <span className="muted">{formatDateTime(step.at)}</span>
              </li>
            ))}
          </ol>
        </section>
      </div>
      {message.state === 'Pending' && message.scheduleAt && !message.states.Processed && (
        <ScheduledEdit message={message} onChanged={props.onChanged} />
      )}
      {message.state === 'Pending' && (
        <div className="form-actions">
          <button type="button" className="danger" disabled={busy} onClick={() => void cancel()}>
            Cancel message
          </button>
          <FormResult result={result} />
        </div>
      )}
    </div>
  );
}
