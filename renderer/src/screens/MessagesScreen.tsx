import { useState } from 'react';
import type { MessageWait } from '../../../server/contract/domain/holdReasons.js';
import type { MessageFilter } from '../api/gatewayApi.js';
import { type MessageRecord, MessageStates } from '../api/types.js';
import { useApp } from '../appContext.js';
import { MessageStateBadge, ServerOriginBadge, SimulatedBadge } from '../components/Badges.js';
import { DataTable } from '../components/DataTable.js';
import { ExportButton } from '../components/ExportButton.js';
import { SharedFilterControls, useSharedFilters } from '../components/FilterControls.js';
import { EmptyState } from '../components/StatusViews.js';
import { namedExport } from '../desk/namedExport.js';
import { useContactNames, withName } from '../desk/useContactNames.js';
import { formatDateTime } from '../format/timeFormat.js';
import { LiveListPanel } from '../live/LiveListPanel.js';
import { usePagedLiveList } from '../live/usePagedLiveList.js';
import { ComposeForm } from '../messages/ComposeForm.js';
import { scheduledFor } from '../messages/failureText.js';
import { MessageActions } from '../messages/MessageActions.js';
import { MessageDetail } from '../messages/MessageDetail.js';
import {
  failedRecipients,
  messageCsvColumns,
  messageLiveRules,
  messageText,
} from '../messages/messageRows.js';
import { useMessageWaits, waitText } from '../messages/useMessageWaits.js';
import { knownModem, modemLabel } from '../modems/modemLabel.js';
import { withActorColumn } from '../people/auditColumns.js';
import { usePerson } from '../session/person.js';
import { useResource } from '../useResource.js';
import { useRevealOnOpen } from '../useRevealOnOpen.js';

const pageSize = 50;
/**
 * Failed lists the messages with any Failed recipient: one to several numbers stays Sent when
 * only some failed (the upstream rule), and the filter must not hide those.
 */
const stateChoices = MessageStates.map((state) => ({
  id: state,
  name: state === 'Failed' ? 'Failed (any recipient)' : state,
}));

/** The list's filter for the chosen state (see `stateChoices`). */
function stateFilter(state: string): MessageFilter {
  if (state === 'Failed') return { anyRecipientFailed: true };
  return state ? { state } : {};
}

export function MessagesScreen() {
  const { api } = useApp();
  const { may } = usePerson();
  const devices = useResource(() => api.devices(), [api]);
  const filters = useSharedFilters();
  const { offset, setOffset } = filters;
  const [openId, setOpenId] = useState<string | undefined>(undefined);
  const [composing, setComposing] = useState(false);
  const openRow = useRevealOnOpen<HTMLTableRowElement>(openId);

  const filter: MessageFilter = { ...stateFilter(filters.values.kind), ...filters.query };
  const page = usePagedLiveList({
    filter,
    offset,
    setOffset,
    pageSize,
    fetchPage: api.listMessages,
    event: 'message',
    itemOf: (message: MessageRecord) => message,
    rules: messageLiveRules,
  });
  /** The user's own message: shown at once, with whatever else arrived. */
  const showSent = (message: MessageRecord) => {
    page.apply(message);
    if (offset === 0) page.showArrivals();
  };

  const waits = useMessageWaits(page.rows);
  const nameOf = useContactNames(
    page.rows.flatMap((message) => message.recipients.map((recipient) => recipient.phoneNumber)),
  );
  // Until a modem takes a message its `deviceId` is the gateway's own id: no modem to name.
  const deviceName = (id: string | undefined) => {
    const modem = knownModem(devices.data, id);
    return modem ? modemLabel(modem) : '—';
  };

  return (
    <>
      <header className="page-head">
        <h1>Messages</h1>
        <div className="head-actions">
          {/* First after the heading: the next Tab from "Skip to content" reaches it. */}
          {may('messages:send') && (
            <button
              type="button"
              className="primary"
              aria-expanded={composing}
              onClick={() => setComposing(!composing)}
            >
              {composing ? 'Close' : 'New message'}
            </button>
          )}
          <ExportButton
            fileStem="messages"
            {...namedExport({
              ...withActorColumn({
                columns: messageCsvColumns(devices.data),
                header: 'sent_by',
                idOf: (message) => message.id,
                fetchPage: (limit, pageOffset) => api.listMessages(filter, limit, pageOffset),
                lookup: api.firstActors,
              }),
              header: 'recipient_names',
              numbersOf: (message) => message.recipients.map((recipient) => recipient.phoneNumber),
              lookup: api.contactNames,
            })}
          />
        </div>
      </header>

      {composing && (
        <section className="panel" aria-label="New message">
          <h2>New message</h2>
          <ComposeForm devices={devices.data} onSent={showSent} onView={(message) => setOpenId(message.id)} />
        </section>
      )}

      <SharedFilterControls
        kind={{ label: 'State', all: 'All states', choices: stateChoices }}
        devices={devices.data}
        values={filters.values}
        onChange={filters.change}
        searchPlaceholder="Text or number"
      />

      <LiveListPanel
        page={page}
        noun="message"
        empty={
          <EmptyState title="No messages match.">
            {JSON.stringify(filter) === '{}'
              ? 'Messages you send appear here as they move through the queue.'
              : 'Try a wider filter.'}
          </EmptyState>
        }
      >
        {(rows) => (
          <DataTable
            label="Messages"
            rows={rows}
            rowKey={(message) => message.id}
            rowAttributes={(message) => ({
              className: openId === message.id ? 'row-open' : undefined,
              'data-message-id': message.id,
            })}
            opened={(message) =>
              openId === message.id
                ? {
                    ref: openRow,
                    content: (
                      <MessageDetail
                        message={message}
                        devices={devices.data}
                        onChanged={page.apply}
                        onResent={showSent}
                      />
                    ),
                  }
                : undefined
            }
            columns={[
              {
                header: 'Accepted',
                className: 'nowrap',
                cell: (message) => formatDateTime(message.createdAt),
              },
              {
                header: 'State',
                cell: (message) => (
                  <>
                    <MessageStatus message={message} nameOf={nameOf} wait={waits[message.id]} />{' '}
                    {message.source === 'server' && <ServerOriginBadge />}
                    <MessageActions
                      message={message}
                      devices={devices.data}
                      onChanged={page.apply}
                      onResent={showSent}
                    />
                  </>
                ),
              },
              {
                header: 'Recipients',
                className: 'mono',
                cell: (message) =>
                  message.recipients
                    .map((recipient) => withName(recipient.phoneNumber, nameOf(recipient.phoneNumber)))
                    .join(', '),
              },
              {
                header: 'Text',
                className: 'truncate',
                cell: (message) => {
                  const open = openId === message.id;
                  return (
                    <button
                      type="button"
                      className="row-toggle"
                      aria-expanded={open}
                      onClick={() => setOpenId(open ? undefined : message.id)}
                    >
                      {messageText(message) || '(no text)'}
                    </button>
                  );
                },
              },
              { header: 'Modem', cell: (message) => deviceName(message.deviceId) },
            ]}
          />
        )}
      </LiveListPanel>
    </>
  );
}

/**
 * The state badge; a Pending message held for its send time says Scheduled and when, any other
 * queued one why it waits.
 */
function MessageStatus(props: {
  message: MessageRecord;
  nameOf: (number: string) => string | undefined;
  wait: MessageWait | undefined;
}) {
  const { message, nameOf, wait } = props;
  const scheduled = scheduledFor(message, Date.now());
  const failed = failedRecipients(message);
  const reportLost = message.recipients.some(
    (recipient) => recipient.state === 'Sent' && recipient.failure?.code === 'report-lost',
  );
  return (
    <>
      {scheduled ? (
        <span className="badge badge-info" title="Held until its send time">
          Scheduled {formatDateTime(scheduled)}
        </span>
      ) : (
        <MessageStateBadge state={message.state} />
      )}{' '}
      {!scheduled && wait && message.state === 'Pending' && <span className="hint">{waitText(wait)}</span>}{' '}
      {reportLost && (
        <span
          className="badge badge-warn"
          title="The modem's storage was full when its delivery report was due"
        >
          report may be lost
        </span>
      )}{' '}
      {failed.length > 0 && message.state !== 'Failed' && (
        <span className="badge badge-error">
          {failed.length} of {message.recipients.length} recipients failed:{' '}
          {namedNumbers(
            failed.map((recipient) => withName(recipient.phoneNumber, nameOf(recipient.phoneNumber))),
          )}
        </span>
      )}{' '}
      {message.simulated && <SimulatedBadge />}
    </>
  );
}

/** Shown failed numbers: a few, then how many more (the details list every recipient). */
const namedFailures = 2;

function namedNumbers(numbers: readonly string[]): string {
  const named = numbers.slice(0, namedFailures).join(', ');
  const more = numbers.length - namedFailures;
  return more > 0 ? `${named} and ${more} more` : named;
}
