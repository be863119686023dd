import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { ConversationRecord, DeviceRecord, ThreadMessageRecord } from '../api/types.js';
import { useApp } from '../appContext.js';
import { MessageStateBadge } from '../components/Badges.js';
import { SearchInput } from '../components/FilterControls.js';
import { PagedListPanel } from '../components/PagedListPanel.js';
import { RoleLimit, Writes } from '../components/RoleLimit.js';
import { EmptyState, ErrorNote, FormResult, Loading } from '../components/StatusViews.js';
import { ContactForm } from '../desk/ContactForm.js';
import { searchNeedle } from '../desk/typedNumbers.js';
import { useOptedOut } from '../desk/useContactNames.js';
import { useDefaultCountry } from '../desk/useDefaultCountry.js';
import { skippedInConversation } from '../format/skippedReply.js';
import { formatDateTime } from '../format/timeFormat.js';
import { useLiveEvent } from '../live/LiveEvents.js';
import { modemLabelById } from '../modems/modemLabel.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';
import { useRevealOnOpen } from '../useRevealOnOpen.js';

const pageSize = 50;
const threadPageSize = 100;

/**
 * Conversations (docs/desk.md "Conversations"): every party the gateway has texted with, newest first,
 * with unread counts; a thread with both directions and each outgoing message's state; a reply
 * box that sends from the modem and SIM the party wrote to.
 */
export function ConversationsScreen() {
  const { api } = useApp();
  const devices = useResource(() => api.devices(), [api]);
  const [archived, setArchived] = useState(false);
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string | undefined>(undefined);
  const [search, setSearch] = useState('');
  const needle = searchNeedle(search, useDefaultCountry());
  const list = useResource(
    () => api.listConversations({ archived, limit: pageSize, offset, search: needle || undefined }),
    [api, archived, offset, needle],
  );

  useLiveEvent('incoming', () => list.reload());
  useLiveEvent('message', () => list.reload());

  // Opening a conversation reads it; "Mark unread" in the thread undoes that.
  function openConversation(conversation: ConversationRecord) {
    setOpen(conversation.number);
    if (conversation.unread > 0)
      void api.markConversation(conversation.number, true).then(list.reload, list.reload);
  }

  const rows = list.data?.items ?? [];
  // Where the thread sits below the list (a narrow window), opening one brings it into view.
  const revealThread = useRevealOnOpen<HTMLElement>(open);
  return (
    <>
      <header className="page-head">
        <h1>Conversations</h1>
        <div className="head-actions">
          <SearchInput
            label="Search"
            placeholder="Name or number"
            value={search}
            onChange={(value) => {
              setSearch(value);
              setOffset(0);
            }}
          />
          <label className="checkbox">
            <input
              type="checkbox"
              checked={archived}
              onChange={(event) => {
                setArchived(event.target.checked);
                setOffset(0);
                setOpen(undefined);
              }}
            />
            Show archived
          </label>
        </div>
      </header>
      <div className="conversations">
        <PagedListPanel
          list={list}
          what="conversations"
          empty={
            needle ? (
              <EmptyState title="No conversation matches.">
                The search looks at numbers and at the names and notes of contacts.
              </EmptyState>
            ) : (
              <EmptyState title={archived ? 'No archived conversations.' : 'No conversations yet.'}>
                Every SMS received or sent shows up here, grouped by the other party's number.
              </EmptyState>
            )
          }
          offset={offset}
          pageSize={pageSize}
          onOffset={setOffset}
          className="panel conversation-list"
          aria-label="Conversation list"
        >
          {(conversations) => (
            <ul className="plain">
              {conversations.map((conversation) => (
                <li key={conversation.number}>
                  <button
                    type="button"
                    className={`conversation-row${conversation.number === open ? ' selected' : ''}`}
                    aria-current={conversation.number === open ? 'true' : undefined}
                    onClick={() => openConversation(conversation)}
                  >
                    <span>
                      {conversation.name && <strong>{conversation.name} </strong>}
                      <span className="mono">{conversation.number}</span>
                    </span>
                    {conversation.unread > 0 && (
                      <span className="badge badge-info">
                        {conversation.unread}
                        <span className="visually-hidden"> unread</span>
                      </span>
                    )}
                    <span className="muted conversation-preview">
                      {conversation.lastDirection === 'out' ? 'You: ' : ''}
                      {conversation.lastText}
                    </span>
                    <span className="hint">{formatDateTime(conversation.lastMessageAt)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </PagedListPanel>
        {open ? (
          <Thread
            key={open}
            conversation={rows.find((row) => row.number === open)}
            number={open}
            panelRef={revealThread}
            devices={devices.data}
            onChanged={list.reload}
          />
        ) : (
          <section className="panel">
            <EmptyState title="Choose a conversation.">Its messages and a reply box open here.</EmptyState>
          </section>
        )}
      </div>
    </>
  );
}

function Thread(props: {
  number: string;
  panelRef: (element: HTMLElement | null) => void;
  conversation: ConversationRecord | undefined;
  devices: DeviceRecord[] | undefined;
  onChanged: () => void;
}) {
  const { api } = useApp();
  const { number, conversation } = props;
  const thread = useResource(() => api.thread(number, threadPageSize, 0), [api, number]);
  const rules = useResource(() => api.rules(), [api]);
  const silentRules = (rules.data ?? []).filter((rule) => rule.lastSkipped?.phoneNumber === number);
  const mark = useAction();
  const reply = useAction();
  const [text, setText] = useState('');
  const optedOut = useOptedOut([number]).length > 0;
  const name = conversation?.name;
  const [addingContact, setAddingContact] = useState(false);

  useLiveEvent('incoming', () => {
    thread.reload();
    rules.reload();
  });
  useLiveEvent('message', () => thread.reload());

  const deviceName = (id: string | undefined) =>
    id === undefined ? 'any modem' : modemLabelById(props.devices, id);

  async function change(action: () => Promise<unknown>) {
    if (await mark.run(async () => void (await action()))) props.onChanged();
  }

  async function send(event: FormEvent) {
    event.preventDefault();
    if (text.trim() === '') return;
    const sent = await reply.run(async () => {
      await api.replyInConversation(number, text);
      return undefined;
    });
    if (sent) {
      setText('');
      thread.reload();
      props.onChanged();
    }
  }

  // Oldest at the top, as a chat reads; the newest in view, as a chat opens.
  const messages = [...(thread.data?.items ?? [])].reverse();
  const newest = messages.at(-1);
  const bubbles = useRef<HTMLOListElement>(null);
  const newestKey = newest && `${newest.direction}-${newest.id}-${newest.state ?? ''}`;
  useEffect(() => {
    const list = bubbles.current;
    if (list && newestKey !== undefined) list.scrollTop = list.scrollHeight;
  }, [newestKey]);
  return (
    <section className="panel thread" aria-label={`Conversation with ${name ?? number}`} ref={props.panelRef}>
      <header className="thread-head">
        <h2>
          {name && <>{name} </>}
          <span className="mono">{number}</span>
          {optedOut && (
            <>
              {' '}
              <span
                className="badge badge-warn"
                title="This number asked not to be texted (the opt-out list)"
              >
                Opted out
              </span>
            </>
          )}
        </h2>
        <div className="head-actions">
          {/* Once the list has named the party or not: a contact's thread never offers it. */}
          {conversation !== undefined && name === undefined && (
            <Writes scope="contacts:write">
              <button
                type="button"
                aria-expanded={addingContact}
                onClick={() => setAddingContact(!addingContact)}
              >
                Add to contacts
              </button>
            </Writes>
          )}
          {conversation && (
            <Writes scope="conversations:write">
              <button
                type="button"
                disabled={mark.busy}
                onClick={() => void change(() => api.markConversation(number, conversation.unread > 0))}
              >
                {conversation.unread > 0 ? 'Mark read' : 'Mark unread'}
              </button>
              <button
                type="button"
                disabled={mark.busy}
                onClick={() => void change(() => api.archiveConversation(number, !conversation.archived))}
              >
                {conversation.archived ? 'Unarchive' : 'Archive'}
              </button>
            </Writes>
          )}
        </div>
      </header>
      {addingContact && (
        <ContactForm
          phoneNumber={number}
          groups={[]}
          onSaved={() => {
            setAddingContact(false);
            props.onChanged();
          }}
          onClose={() => setAddingContact(false)}
        />
      )}
      <FormResult result={mark.result} />
      {thread.loading && !thread.data && <Loading what="messages" />}
      {thread.error !== undefined && <ErrorNote error={thread.error} onRetry={thread.reload} />}
      {silentRules.map(
        (rule) =>
          rule.lastSkipped && (
            <p key={rule.id} className="note note-warn">
              {skippedInConversation(rule, rule.lastSkipped)}
            </p>
          ),
      )}
      {/* Focusable: the list scrolls, and a keyboard user scrolls it with the arrow keys. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (WCAG 2.1.1, axe scrollable-region-focusable). */}
      <ol className="bubbles" aria-label="Messages" ref={bubbles} tabIndex={0}>
        {messages.map((message) => (
          <Bubble key={`${message.direction}-${message.id}`} message={message} deviceName={deviceName} />
        ))}
      </ol>
      <RoleLimit scope="messages:send" what="the conversations" />
      <Writes scope="messages:send">
        <form className="reply" onSubmit={(event) => void send(event)} aria-label="Reply">
          {optedOut && (
            <p className="note note-warn" id="reply-opted-out">
              {name ?? number} asked not to be texted, so a reply would fail. Replies go out again once they
              text START, or once the number is taken off the <a href="#/optouts">Opt-outs</a> list.
            </p>
          )}
          <label htmlFor="reply-text">Your reply</label>
          <textarea
            id="reply-text"
            rows={2}
            value={text}
            aria-describedby={optedOut ? 'reply-opted-out' : undefined}
            onChange={(event) => setText(event.target.value)}
          />
          <span className="hint">
            Sent from {deviceName(conversation?.replyDeviceId)}
            {conversation?.replySimNumber !== undefined ? `, SIM ${conversation.replySimNumber}` : ''}.
          </span>
          <div className="form-actions">
            <button type="submit" className="primary" disabled={reply.busy || optedOut || text.trim() === ''}>
              {reply.busy ? 'Sending…' : 'Send reply'}
            </button>
            <FormResult result={reply.result} />
          </div>
        </form>
      </Writes>
    </section>
  );
}

function Bubble(props: { message: ThreadMessageRecord; deviceName: (id: string | undefined) => string }) {
  const { message } = props;
  return (
    <li className={`bubble bubble-${message.direction}`}>
      <p className="message-text">{message.text}</p>
      <span className="hint">
        {formatDateTime(message.at)}
        {message.direction === 'in' ? ` · to ${props.deviceName(message.deviceId)}` : ''}
      </span>{' '}
      {message.state && <MessageStateBadge state={message.state} />}
      {message.scheduleAt && message.state === 'Pending' && (
        <span className="hint"> scheduled for {formatDateTime(message.scheduleAt)}</span>
      )}
      {message.error && <span className="form-error"> {message.error}</span>}
    </li>
  );
}
