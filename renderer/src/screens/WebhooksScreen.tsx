import { type FormEvent, useState } from 'react';
import { WebhookEvents, type WebhookRecord } from '../api/types.js';
import { useApp } from '../appContext.js';
import { DataTable } from '../components/DataTable.js';
import { DeviceSelect } from '../components/FilterControls.js';
import { ListView } from '../components/ListView.js';
import { RoleLimit, Writes } from '../components/RoleLimit.js';
import { EmptyState, FormResult } from '../components/StatusViews.js';
import { plainNetworkError } from '../format/networkErrors.js';
import { formatDateTime, formatRelative } from '../format/timeFormat.js';
import { modemLabelById } from '../modems/modemLabel.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';
import { webhookEventHelp, webhookUrlProblem } from '../webhooks/webhookForm.js';

export function WebhooksScreen() {
  const { api } = useApp();
  const webhooks = useResource(() => api.webhooks(), [api]);
  const devices = useResource(() => api.devices(), [api]);
  const status = useResource(() => api.status(), [api]);
  const [openId, setOpenId] = useState<string | undefined>(undefined);
  const unsigned = status.data?.webhooks.signed === false;

  return (
    <>
      <header className="page-head">
        <h1>Webhooks</h1>
      </header>
      <RoleLimit scope="webhooks:write" what="the webhooks and their deliveries" />
      <p className="muted intro">
        The gateway POSTs a JSON event to each address when something happens. Failed deliveries are retried
        with growing pauses, as many times as the “retry count” setting allows; after that, “Send again” sends
        them once more.
      </p>
      {unsigned && (
        <p className="note note-warn" role="note">
          Deliveries are not signed: no signing key is set, so a receiver cannot tell them from forged ones.
          Set one under <a href="#/settings">Settings</a> → Webhooks → Signing key (deliveries then carry
          X-Signature).
        </p>
      )}
      <Writes scope="webhooks:write">
        <AddWebhookForm devices={devices.data} onAdded={webhooks.reload} />
      </Writes>
      <section className="panel" aria-labelledby="webhook-list-title">
        <h2 id="webhook-list-title">Registered webhooks</h2>
        <ListView
          read={webhooks}
          items={webhooks.data}
          what="webhooks"
          empty={
            <EmptyState title="No webhooks yet.">
              Add one above to be told about incoming SMS and delivery reports.
            </EmptyState>
          }
        >
          {(registered) => (
            <DataTable
              label="Webhooks"
              rows={registered}
              rowKey={(webhook) => webhook.id}
              opened={(webhook) =>
                openId === webhook.id
                  ? { content: <WebhookDetail webhook={webhook} onRemoved={webhooks.reload} /> }
                  : undefined
              }
              columns={[
                { header: 'Event', cell: (webhook) => <code>{webhook.event}</code> },
                {
                  header: 'Address',
                  className: 'mono truncate',
                  cell: (webhook) => <span title={webhook.url}>{webhook.url}</span>,
                },
                {
                  header: 'Modem',
                  cell: (webhook) =>
                    webhook.deviceId ? modemLabelById(devices.data, webhook.deviceId) : 'All',
                },
                { header: 'ID', className: 'mono small', cell: (webhook) => webhook.id },
                {
                  header: 'Actions',
                  headerHidden: true,
                  className: 'nowrap',
                  cell: (webhook) => (
                    <button
                      type="button"
                      className="button-small"
                      aria-expanded={openId === webhook.id}
                      onClick={() => setOpenId(openId === webhook.id ? undefined : webhook.id)}
                    >
                      Deliveries
                    </button>
                  ),
                },
              ]}
            />
          )}
        </ListView>
      </section>
    </>
  );
}

function AddWebhookForm(props: {
  devices: Parameters<typeof DeviceSelect>[0]['devices'];
  onAdded: () => void;
}) {
  const { api } = useApp();
  const [id, setId] = useState('');
  const [url, setUrl] = useState('');
  const [event, setEvent] = useState<string>('sms:received');
  const [deviceId, setDeviceId] = useState('');
  const [touched, setTouched] = useState(false);
  const { busy, result, run } = useAction();
  const urlProblem = webhookUrlProblem(url);

  async function submit(formEvent: FormEvent) {
    formEvent.preventDefault();
    setTouched(true);
    if (urlProblem) return;
    const saved = await run(async () => {
      const webhook = await api.saveWebhook({
        url: url.trim(),
        event,
        ...(id.trim() ? { id: id.trim() } : {}),
        ...(deviceId ? { deviceId } : {}),
      });
      return `Saved webhook ${webhook.id}.`;
    });
    if (!saved) return;
    setId('');
    setUrl('');
    setTouched(false);
    props.onAdded();
  }

  return (
    <section className="panel" aria-labelledby="add-webhook-title">
      <h2 id="add-webhook-title">Add a webhook</h2>
      <form onSubmit={(formEvent) => void submit(formEvent)}>
        <div className="form-row">
          <label className="grow">
            Address (URL)
            <input
              name="url"
              type="url"
              placeholder="https://example.com/sms-events"
              value={url}
              aria-invalid={touched && urlProblem !== undefined}
              onBlur={() => setTouched(url !== '')}
              onChange={(changeEvent) => setUrl(changeEvent.target.value)}
            />
            {touched && urlProblem && <span className="field-error">{urlProblem}</span>}
          </label>
          <label>
            Event
            <select name="event" value={event} onChange={(changeEvent) => setEvent(changeEvent.target.value)}>
              {WebhookEvents.map((entry) => (
                <option key={entry} value={entry}>
                  {entry} — {webhookEventHelp[entry]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="form-row">
          <label>
            ID (optional)
            <input
              name="id"
              value={id}
              placeholder="generated"
              onChange={(changeEvent) => setId(changeEvent.target.value)}
            />
            <span className="hint">Saving an existing ID replaces that webhook.</span>
          </label>
          <DeviceSelect
            devices={props.devices}
            value={deviceId}
            onChange={setDeviceId}
            emptyLabel="All modems"
          />
        </div>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Add webhook'}
          </button>
          <FormResult result={result} />
        </div>
      </form>
    </section>
  );
}

function WebhookDetail(props: { webhook: WebhookRecord; onRemoved: () => void }) {
  const { api } = useApp();
  const { webhook } = props;
  const deliveries = useResource(() => api.webhookDeliveries(webhook.id, 50), [api, webhook.id]);
  const { result, run } = useAction();
  const failed = deliveries.data?.filter((delivery) => delivery.state === 'failed').length ?? 0;
  async function sendAgain(ids?: string[]) {
    const sent = await run(async () => {
      const resent = await api.resendDeliveries(ids ? { ids } : { webhookId: webhook.id });
      return `Sending ${resent.length} ${resent.length === 1 ? 'delivery' : 'deliveries'} again.`;
    });
    if (sent) setTimeout(deliveries.reload, 1500);
  }

  async function sendTest() {
    const sent = await run(async () => {
      await api.testWebhook(webhook.id);
      return `A test ${webhook.event} event is on its way.`;
    });
    if (sent) setTimeout(deliveries.reload, 1500);
  }

  async function remove() {
    const removed = await run(async () => {
      await api.removeWebhook(webhook.id);
      return undefined;
    });
    if (removed) props.onRemoved();
  }

  return (
    <div className="detail">
      <div className="form-actions">
        <Writes scope="webhooks:write">
          <button type="button" onClick={() => void sendTest()}>
            Send test event
          </button>
          {failed > 0 && (
            <button type="button" onClick={() => void sendAgain()}>
              Send all {failed} failed again
            </button>
          )}
        </Writes>
        <button type="button" onClick={deliveries.reload}>
          Refresh
        </button>
        <Writes scope="webhooks:delete">
          <button type="button" className="danger-outline" onClick={() => void remove()}>
            Remove webhook
          </button>
        </Writes>
        <FormResult result={result} />
      </div>
      <h3>Delivery attempts</h3>
      <ListView
        read={deliveries}
        items={deliveries.data}
        what="deliveries"
        empty={<EmptyState title="Nothing delivered yet." />}
      >
        {(attempts) => (
          <DataTable
            label="Deliveries"
            rows={attempts}
            rowKey={(delivery) => delivery.id}
            compact
            columns={[
              {
                header: 'Created',
                className: 'nowrap',
                cell: (delivery) => formatDateTime(delivery.createdAt),
              },
              {
                header: 'State',
                cell: (delivery) => (
                  <>
                    <span
                      className={`badge badge-${delivery.state === 'delivered' ? 'ok' : delivery.state === 'failed' ? 'error' : 'neutral'}`}
                    >
                      {delivery.state}
                    </span>
                    {delivery.lastError && (
                      <div className="form-error small">{plainNetworkError(delivery.lastError)}</div>
                    )}
                    {delivery.state === 'failed' && (
                      <Writes scope="webhooks:write">
                        <button
                          type="button"
                          className="button-small"
                          onClick={() => void sendAgain([delivery.id])}
                        >
                          Send again
                        </button>
                      </Writes>
                    )}
                  </>
                ),
              },
              {
                header: 'Attempts',
                cell: (delivery) => (
                  <>
                    <ul className="plain small">
                      {delivery.attempts.map((attempt, index) => (
                        // Attempts are an append-only list: the index is their identity.
                        // biome-ignore lint/suspicious/noArrayIndexKey: see above
                        <li key={index}>
                          {formatDateTime(attempt.at)} —{' '}
                          {attempt.status !== undefined
                            ? `HTTP ${attempt.status}`
                            : plainNetworkError(attempt.error ?? 'no answer')}
                          {attempt.status !== undefined && attempt.error ? ` (${attempt.error})` : ''} ·{' '}
                          {attempt.durationMs} ms
                        </li>
                      ))}
                      {delivery.attempts.length === 0 && <li className="muted">Not tried yet</li>}
                    </ul>
                  </>
                ),
              },
              {
                header: 'Next retry',
                className: 'nowrap',
                cell: (delivery) => (
                  <>
                    {delivery.state === 'pending' && delivery.nextAttemptAt
                      ? formatRelative(delivery.nextAttemptAt, Date.now())
                      : '—'}
                  </>
                ),
              },
            ]}
          />
        )}
      </ListView>
    </div>
  );
}
