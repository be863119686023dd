import { useLayoutEffect, useRef } from 'react';
import { useApp } from '../appContext.js';
import { EmptyState, ErrorNote, Loading } from '../components/StatusViews.js';
import { formatTime } from '../format/timeFormat.js';
import { useResource } from '../useResource.js';

/** The last AT lines exchanged with one modem: » out to the modem, « in from it. */
export function AtLogView(props: { deviceId: string }) {
  const { api } = useApp();
  const log = useResource(() => api.atLog(props.deviceId, 200), [api, props.deviceId]);
  const terminal = useRef<HTMLElement>(null);
  // The newest exchange is what the user came for: show the bottom of the log.
  useLayoutEffect(() => {
    if (log.data && terminal.current) terminal.current.scrollTop = terminal.current.scrollHeight;
  }, [log.data]);
  return (
    <div className="at-log">
      <div className="panel-head">
        <h3>AT log</h3>
        <button type="button" className="button-small" onClick={log.reload}>
          Refresh
        </button>
      </div>
      {log.loading && !log.data && <Loading what="AT log" />}
      {log.error !== undefined && <ErrorNote error={log.error} onRetry={log.reload} />}
      {log.data && log.data.length === 0 && <EmptyState title="No AT traffic recorded yet." />}
      {log.data && log.data.length > 0 && (
        <section
          className="terminal"
          ref={terminal}
          aria-label="AT commands and replies"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so the arrow and page keys scroll it (WCAG 2.1.1)
          tabIndex={0}
        >
          <pre>
            {log.data
              .map((line) => `${formatTime(line.at)} ${line.direction === 'out' ? '»' : '«'} ${line.line}`)
              .join('\n')}
          </pre>
        </section>
      )}
    </div>
  );
}
