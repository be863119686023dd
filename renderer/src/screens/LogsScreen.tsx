import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { type LogLevel, LogLevels } from '../../../server/contract/domain/logLevels.js';
import type { LogRecord } from '../api/types.js';
import { useApp } from '../appContext.js';
import { EmptyState, ErrorNote, Loading } from '../components/StatusViews.js';
import { formatDateTime } from '../format/timeFormat.js';
import { useLiveEvent } from '../live/LiveEvents.js';
import { appendToTail, type LogFilter, mergeHistory, moduleNames, passesLogFilter } from '../logs/logTail.js';
import { useResource } from '../useResource.js';

/** Entries kept in the window; older ones are in GET /logs and the export. */
const tailCap = 2000;
/** The tail starts with the last hour. */
const historyMs = 3600 * 1000;

export function LogsScreen() {
  const { api } = useApp();
  const history = useResource(() => api.logs(new Date(Date.now() - historyMs).toISOString()), [api]);
  const [tail, setTail] = useState<LogRecord[]>([]);
  const [held, setHeld] = useState<LogRecord[]>([]);
  const [paused, setPaused] = useState(false);
  const [filter, setFilter] = useState<LogFilter>({ minPriority: 'INFO', module: '', text: '' });
  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  // Live entries carry no id; each record object gets a stable key the first time it is drawn.
  const keys = useRef(new WeakMap<LogRecord, number>());
  const nextKey = useRef(0);
  const keyOf = (record: LogRecord) => {
    let key = keys.current.get(record);
    if (key === undefined) {
      key = nextKey.current++;
      keys.current.set(record, key);
    }
    return key;
  };

  useEffect(() => {
    if (history.data) setTail((current) => mergeHistory(history.data ?? [], current, tailCap));
  }, [history.data]);

  useLiveEvent<LogRecord>('log', (record) => {
    if (paused) setHeld((current) => appendToTail(current, [record], tailCap));
    else setTail((current) => appendToTail(current, [record], tailCap));
  });

  function resume() {
    setTail((current) => appendToTail(current, held, tailCap));
    setHeld([]);
    setPaused(false);
  }

  const shown = tail.filter((record) => passesLogFilter(record, filter));
  const modules = moduleNames(tail);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && stickToBottom.current) element.scrollTop = element.scrollHeight;
  });

  return (
    <>
      <header className="page-head">
        <h1>Logs</h1>
        <div className="head-actions">
          {paused ? (
            <button type="button" className="primary" onClick={resume}>
              Resume{held.length > 0 ? ` (${held.length} new)` : ''}
            </button>
          ) : (
            <button type="button" onClick={() => setPaused(true)}>
              Pause
            </button>
          )}
        </div>
      </header>
      <section className="filters" aria-label="Filters">
        <label>
          Level
          <select
            name="level"
            value={filter.minPriority}
            onChange={(event) => setFilter({ ...filter, minPriority: event.target.value as LogLevel })}
          >
            {LogLevels.map((priority) => (
              <option key={priority} value={priority}>
                {priority === 'DEBUG' ? 'Everything (debug)' : `${priority} and above`}
              </option>
            ))}
          </select>
        </label>
        <label>
          Module
          <select
            name="module"
            value={filter.module}
            onChange={(event) => setFilter({ ...filter, module: event.target.value })}
          >
            <option value="">All modules</option>
            {modules.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Contains
          <input
            type="search"
            value={filter.text}
            onChange={(event) => setFilter({ ...filter, text: event.target.value })}
          />
        </label>
      </section>
      <section className="panel">
        {history.loading && !history.data && <Loading what="logs" />}
        {history.error !== undefined && <ErrorNote error={history.error} onRetry={history.reload} />}
        {history.data && shown.length === 0 && (
          <EmptyState title="No log entries match.">New entries appear here as they are written.</EmptyState>
        )}
        {shown.length > 0 && (
          <div
            className="log-view"
            ref={scroller}
            role="log"
            aria-label="Log entries, newest at the bottom"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so the arrow and page keys scroll it (WCAG 2.1.1, axe scrollable-region-focusable)
            tabIndex={0}
            onScroll={(event) => {
              const element = event.currentTarget;
              stickToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
            }}
          >
            {shown.map((record) => (
              <div key={keyOf(record)} className={`log-line log-${record.priority.toLowerCase()}`}>
                <span className="log-time">{formatDateTime(record.createdAt)}</span>
                <span className="log-level">{record.priority}</span>
                <span className="log-module">{record.module}</span>
                <span className="log-message">
                  {record.message}
                  {record.context && Object.keys(record.context).length > 0 && (
                    <span className="log-context"> {JSON.stringify(record.context)}</span>
                  )}
                </span>
              </div>
            ))}
          </div>
        )}
        {paused && <p className="muted small">Paused: {held.length} new entries are waiting.</p>}
      </section>
    </>
  );
}
