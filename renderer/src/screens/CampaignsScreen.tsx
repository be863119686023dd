import { useEffect, useRef, useState } from 'react';
import { useApp } from '../appContext.js';
import { ConfirmButton } from '../components/ConfirmButton.js';
import { ExportButton } from '../components/ExportButton.js';
import { ListView } from '../components/ListView.js';
import { RoleLimit, Writes } from '../components/RoleLimit.js';
import { EmptyState } from '../components/StatusViews.js';
import { BulkSendForm } from '../desk/BulkSendForm.js';
import type { Campaign, CampaignRecipientReport } from '../desk/deskTypes.js';
import { namedExport } from '../desk/namedExport.js';
import type { CsvColumn } from '../format/csv.js';
import { counted } from '../format/numberFormat.js';
import { formatDateTime } from '../format/timeFormat.js';
import { useLiveEvent } from '../live/LiveEvents.js';
import { usePerson } from '../session/person.js';
import { useResource } from '../useResource.js';

/**
 * How often running campaigns are read again for their progress bars; and, once a campaign's
 * queue is empty, how soon after a message changes (a late delivery report) its counts follow.
 */
const progressPollMs = 1000;

/** States in which messages are still being written or wait to be sent: a cancel still stops some. */
const underWay: ReadonlySet<Campaign['state']> = new Set(['Queueing', 'Running', 'Interrupted']);

/** Bulk send: compose to many, then follow each campaign's progress and cancel it as a whole. */
export function CampaignsScreen() {
  const { api } = useApp();
  const campaigns = useResource(() => api.campaigns(), [api]);
  const status = useResource(() => api.status(), [api]);
  const running =
    campaigns.data?.some((campaign) => campaign.state === 'Queueing' || campaign.state === 'Running') ??
    false;
  const messageChanged = useRef(false);
  useLiveEvent('message', () => {
    messageChanged.current = true;
  });
  useEffect(() => {
    const timer = setInterval(() => {
      if (!running && !messageChanged.current) return;
      messageChanged.current = false;
      campaigns.reload();
      status.reload();
    }, progressPollMs);
    return () => clearInterval(timer);
  }, [running, campaigns.reload, status.reload]);
  const sendingPaused = status.data?.sendingPaused ?? false;

  return (
    <>
      <header className="page-head">
        <h1>Bulk send</h1>
      </header>
      <RoleLimit scope="campaigns:send" what="the campaigns and their reports" />
      <Writes scope="campaigns:send">
        <section className="panel" aria-label="New bulk send">
          <h2>New bulk send</h2>
          <BulkSendForm onStarted={campaigns.reload} />
        </section>
      </Writes>
      <section className="panel" aria-label="Campaigns">
        <h2>Campaigns</h2>
        <ListView
          read={campaigns}
          items={campaigns.data}
          what="campaigns"
          empty={<EmptyState title="No campaigns yet." />}
        >
          {(started) =>
            started.map((campaign) => (
              <CampaignCard
                key={campaign.id}
                campaign={campaign}
                sendingPaused={sendingPaused}
                onChanged={campaigns.reload}
              />
            ))
          }
        </ListView>
      </section>
    </>
  );
}

/** The report's columns, in the list's order: who, what became of their message, why it failed, and when (the contact's name is added). */
const campaignReportColumns: CsvColumn<CampaignRecipientReport>[] = [
  { header: 'recipient', value: (row) => row.phoneNumber, phone: true },
  { header: 'state', value: (row) => row.state },
  { header: 'error', value: (row) => row.error },
  { header: 'queued_at', value: (row) => row.queuedAt },
  { header: 'sent_at', value: (row) => row.sentAt },
  { header: 'delivered_at', value: (row) => row.deliveredAt },
  { header: 'failed_at', value: (row) => row.failedAt },
  { header: 'cancelled_at', value: (row) => row.cancelledAt },
];

/** A running campaign that cannot progress (sending paused, or not due yet) says so. */
function shownState(campaign: Campaign, sendingPaused: boolean): string {
  if (campaign.state !== 'Running') return campaign.state;
  if (sendingPaused) return 'Paused (sending is paused)';
  if (campaign.scheduleAt !== undefined && campaign.scheduleAt > Date.now())
    return `Scheduled for ${formatDateTime(campaign.scheduleAt)}`;
  return campaign.state;
}

function CampaignCard(props: { campaign: Campaign; sendingPaused: boolean; onChanged: () => void }) {
  const { api } = useApp();
  const { may } = usePerson();
  const { campaign } = props;
  const { progress } = campaign;
  const [cancelling, setCancelling] = useState(false);
  return (
    <article className="campaign" aria-label={`Campaign ${campaign.name}`}>
      <h3>
        {campaign.name} <span className="muted">{formatDateTime(campaign.createdAt)}</span>
      </h3>
      <progress
        max={100}
        value={progress.percent}
        aria-label={`Progress of ${campaign.name}`}
        aria-valuetext={`${progress.percent} %`}
      />{' '}
      <span className="campaign-percent">{progress.percent} % sent or failed</span>
      <p role="status">
        {shownState(campaign, props.sendingPaused)}: {campaign.recipients} recipients — {progress.sent} sent,{' '}
        {progress.delivered} delivered, {progress.failed} failed
        {progress.cancelled > 0 ? `, ${progress.cancelled} cancelled` : ''}
        {progress.queued > 0 ? `, ${progress.queued} waiting` : ''}.
      </p>
      <ExportButton
        label="Download report (CSV)"
        fileStem={`campaign-${campaign.name.replace(/[^\p{L}\p{N}]+/gu, '-')}`}
        {...namedExport({
          columns: campaignReportColumns,
          header: 'name',
          numbersOf: (row) => [row.phoneNumber],
          fetchPage: (limit, offset) => api.campaignReport(campaign.id, limit, offset),
          lookup: api.contactNames,
        })}
      />
      {campaign.state === 'Interrupted' && (
        <p className="hint">
          Queueing its messages was cut short. Send again in the form that started it queues the rest; or
          cancel it.
        </p>
      )}
      {underWay.has(campaign.state) && campaign.cancelledAt === undefined && may('campaigns:cancel') && (
        <ConfirmButton
          label="Cancel campaign"
          className="danger-outline"
          disabled={cancelling}
          question={`Cancel ${counted(progress.queued, 'message')} still waiting? Those already sent stay sent.`}
          confirmLabel="Yes, cancel campaign"
          keepLabel="Keep sending"
          onConfirm={() => {
            setCancelling(true);
            void api.cancelCampaign(campaign.id).finally(() => {
              setCancelling(false);
              props.onChanged();
            });
          }}
        />
      )}
    </article>
  );
}
