import type { SettingsDocument } from '../api/types.js';
import { useApp } from '../appContext.js';
import { ErrorNote, Loading } from '../components/StatusViews.js';
import { useResource } from '../useResource.js';

const numberFormat = new Intl.NumberFormat('en-US');

/** "1.4 MB", "349 MB", "2.1 GB": decimal units, as file managers show sizes. */
export function formatSize(bytes: number): string {
  if (bytes < 1000 * 1000) return `${Math.max(1, Math.round(bytes / 1000))} kB`;
  if (bytes < 1000 * 1000 * 1000) {
    const megabytes = bytes / (1000 * 1000);
    return `${megabytes < 10 ? megabytes.toFixed(1) : Math.round(megabytes)} MB`;
  }
  return `${(bytes / (1000 * 1000 * 1000)).toFixed(1)} GB`;
}

/** "1 message", "2,000 messages"; "received" stays as it is. */
function counted(count: number, noun: string): string {
  const plural = count === 1 || noun === 'received' ? noun : `${noun}s`;
  return `${numberFormat.format(count)} ${plural}`;
}

/** How long a lifetime setting keeps rows, in words ("forever" when unset). */
function keptFor(settings: SettingsDocument | undefined, group: string, key: string): string {
  const days = settings?.[group]?.[key];
  if (typeof days !== 'number') return 'forever';
  return days === 1 ? 'for 1 day' : `for ${numberFormat.format(days)} days`;
}

/**
 * The size of the message database beside the retention settings that bound it, so whoever
 * sets "Keep message history" sees what the history costs on disk.
 */
export function DatabasePanel(props: { settings: SettingsDocument | undefined }) {
  const { api } = useApp();
  const database = useResource(() => api.database(), [api, props.settings]);
  const size = database.data;
  return (
    <section className="panel" aria-labelledby="database-title">
      <h2 id="database-title">Database</h2>
      {database.loading && !size && <Loading what="the database size" />}
      {database.error !== undefined && <ErrorNote error={database.error} onRetry={database.reload} />}
      {size && (
        <dl className="facts">
          <dt>Size on disk</dt>
          <dd>
            {formatSize(size.bytes)} for {counted(size.messages, 'message')} and{' '}
            {counted(size.incoming, 'received')}
          </dd>
          <dt>Message history is kept</dt>
          <dd>{keptFor(props.settings, 'messages', 'log_lifetime_days')}</dd>
          <dt>Received messages are kept</dt>
          <dd>{keptFor(props.settings, 'incoming', 'lifetime_days')}</dd>
        </dl>
      )}
    </section>
  );
}
