import type { DeviceRecord, MessageRecord } from '../api/types.js';
import { useApp } from '../appContext.js';
import { MessageStateBadge, ServerOriginBadge, SimulatedBadge } from '../components/Badges.js';
import { useContactNames, withName } from '../desk/useContactNames.js';
import { formatDateTime } from '../format/timeFormat.js';
import { knownModem, modemLabel } from '../modems/modemLabel.js';
import { usePerson } from '../session/person.js';
import { useResource } from '../useResource.js';
import { plainFailure, scheduledFor } from './failureText.js';
import { MessageActions } from './MessageActions.js';
import { messageText, stateTimeline } from './messageRows.js';
import { ScheduledEdit } from './ScheduledEdit.js';

/**
 * One message opened: content, when a scheduled one goes, each recipient's state and failure in
 * plain words, the state timeline, Cancel / Send again.
 */
export function MessageDetail(props: {
  message: MessageRecord;
  devices: DeviceRecord[] | undefined;
  onChanged: (message: MessageRecord) => void;
  onResent: (message: MessageRecord) => void;
}) {
  const { message } = props;
  const scheduled = scheduledFor(message, Date.now());
  // Until a modem takes it, `deviceId` is the gateway's own id (what upstream clients expect).
  const modem = knownModem(props.devices, message.deviceId);
  const nameOf = useContactNames(message.recipients.map((recipient) => recipient.phoneNumber));

  return (
    <div className="detail">
      <div className="detail-grid">
        <section>
          <h2>Content</h2>
          <p className="message-text">
            {messageText(message) || <span className="muted">(encrypted or empty)</span>}
          </p>
          <dl className="facts">
            <dt>ID</dt>
            <dd>
              <code>{message.id}</code>
            </dd>
            <SentBy messageId={message.id} />
            {message.source === 'server' && (
              <>
                <dt>Origin</dt>
                <dd>
                  <ServerOriginBadge />{' '}
                  <span className="hint">its states are reported to the private server</span>
                </dd>
              </>
            )}
            {scheduled && (
              <>
                <dt>Scheduled for</dt>
                <dd>{formatDateTime(scheduled)}</dd>
              </>
            )}
            <dt>Modem</dt>
            <dd>
              {modem
                ? modemLabel(modem)
                : scheduled
                  ? 'Chosen when it goes'
                  : message.state === 'Pending'
                    ? 'Not chosen yet'
                    : 'None: it was not sent'}{' '}
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
            {message.validUntil && (
              <>
                <dt>Valid until</dt>
                <dd>{formatDateTime(message.validUntil)}</dd>
              </>
            )}
          </dl>
        </section>
        <section>
          <h2>Recipients</h2>
          <ul className="plain">
            {message.recipients.map((recipient) => (
              <li key={recipient.phoneNumber}>
                <span className="mono">{withName(recipient.phoneNumber, nameOf(recipient.phoneNumber))}</span>{' '}
                <MessageStateBadge state={recipient.state} />
                {(recipient.error || recipient.failure) && (
                  <div className="form-error">{plainFailure(recipient, message)}</div>
                )}
              </li>
            ))}
          </ul>
          <h2>Timeline</h2>
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
      <div className="form-actions">
        <MessageActions
          message={message}
          devices={props.devices}
          onChanged={props.onChanged}
          onResent={props.onResent}
        />
      </div>
    </div>
  );
}

/** Who sent it (the audit trail's first event for the message); nothing for a reply a rule sent. */
function SentBy(props: { messageId: string }) {
  const { api } = useApp();
  const { may } = usePerson();
  const allowed = may('audit:read');
  const actors = useResource(
    () => (allowed ? api.firstActors([props.messageId]) : Promise.resolve(undefined)),
    [api, allowed, props.messageId],
  );
  const actor = actors.data?.[props.messageId];
  if (actor === undefined) return null;
  return (
    <>
      <dt>Sent by</dt>
      <dd>{actor}</dd>
    </>
  );
}
