import { useRef, useState } from 'react';
import { planText } from '../../../server/contract/pdu/index.js';
import { useApp } from '../appContext.js';
import { DataTable } from '../components/DataTable.js';
import { FormResult } from '../components/StatusViews.js';
import { counted } from '../format/numberFormat.js';
import { formatDateTime, formatDuration, localInputToIso } from '../format/timeFormat.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';
import { ContactPicker } from './ContactPicker.js';
import { campaignSeconds, limitsFrom, typicalPartSeconds } from './campaignEstimate.js';
import { newCampaignId } from './campaignId.js';
import { type CsvRecipients, campaignRows, readCsvRecipients } from './csvRecipients.js';
import type { Campaign, CampaignPreview, CampaignRequest, Contact } from './deskTypes.js';
import { TemplatePicker } from './TemplatePicker.js';
import { splitTypedRecipients } from './typedNumbers.js';
import { useNumberExample } from './useDefaultCountry.js';

/**
 * Compose to many: typed numbers, contacts, groups and the rows of a CSV in any mix, with
 * placeholders; Preview shows who gets it after de-duplication and opt-out and how many SMS
 * parts it costs; Send queues it as one campaign.
 */
export function BulkSendForm(props: { onStarted: (campaign: Campaign) => void }) {
  const numberExample = useNumberExample();
  const { api } = useApp();
  const groups = useResource(() => api.groups(), [api]);
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [numbers, setNumbers] = useState('');
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [contacts, setContacts] = useState<Contact[]>([]);
  const [csv, setCsv] = useState<CsvRecipients>();
  const [preview, setPreview] = useState<CampaignPreview>();
  /** Send to the rest, leaving out the recipients the preview found a problem with. */
  const [skipProblems, setSkipProblems] = useState(false);
  /** "Send later": a local date and time from the datetime-local input, '' for now. */
  const [sendAt, setSendAt] = useState('');
  const previewAction = useAction();
  const sendAction = useAction();
  // One id per submission, kept until it succeeds or the request changes: a Send clicked again
  // after a lost answer (a dropped connection, the gateway restarting) gets the campaign the
  // first click started instead of a second one.
  const campaignId = useRef<string | undefined>(undefined);

  const request = (): CampaignRequest => {
    const typed = splitTypedRecipients(numbers);
    return {
      name: name || undefined,
      text,
      recipients: {
        phoneNumbers: typed.phoneNumbers,
        contactIds: contacts.map((contact) => contact.id),
        groupIds,
        rows: [...typed.named.map((named) => named.recipient), ...(csv ? campaignRows(csv) : [])],
      },
      ...(sendAt ? { scheduleAt: localInputToIso(sendAt) } : {}),
    };
  };
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      setPreview(undefined);
      setSkipProblems(false);
      campaignId.current = undefined;
      set(value);
    };
  const plan = planText(text);
  const problems = preview?.problemCount ?? 0;
  const ready = preview !== undefined && preview.recipients > 0 && (problems === 0 || skipProblems);

  return (
    <form className="compose" aria-label="Bulk send" onSubmit={(event) => event.preventDefault()}>
      <div className="form-row">
        <label>
          Campaign name
          <input
            value={name}
            placeholder="Price list May"
            onChange={(event) => changed(setName)(event.target.value)}
          />
        </label>
        <TemplatePicker id="bulk-template" onPick={changed(setText)} />
      </div>
      <div className="field">
        <label htmlFor="bulk-text">Message</label>
        <textarea
          id="bulk-text"
          rows={3}
          required
          value={text}
          onChange={(event) => changed(setText)(event.target.value)}
        />
        <span className="hint">
          {'{name}'} and the CSV's columns (
          {csv ? csv.columns.map((column) => `{${column}}`).join(' ') : 'e.g. {order}'}) are filled in per
          recipient. Without placeholders: {plan.parts} SMS part{plan.parts === 1 ? '' : 's'}.
        </span>
      </div>
      <div className="field">
        <label htmlFor="bulk-numbers">Numbers</label>
        <textarea
          id="bulk-numbers"
          rows={2}
          placeholder={`${numberExample}, +44 20 7946 0958`}
          value={numbers}
          onChange={(event) => changed(setNumbers)(event.target.value)}
        />
        <span className="hint">
          As you would dial them; numbers without + use the default country (Settings). Name and number
          columns pasted from a spreadsheet keep their names for {'{name}'}.
        </span>
      </div>
      <ContactPicker chosen={contacts} onChange={changed(setContacts)} />
      {groups.data && groups.data.length > 0 && (
        <fieldset className="form-row">
          <legend>Groups</legend>
          {groups.data.map((group) => (
            <label key={group.id} className="checkbox">
              <input
                type="checkbox"
                checked={groupIds.includes(group.id)}
                onChange={(event) =>
                  changed(setGroupIds)(
                    event.target.checked ? [...groupIds, group.id] : groupIds.filter((id) => id !== group.id),
                  )
                }
              />
              {group.name} ({group.size})
            </label>
          ))}
        </fieldset>
      )}
      <div className="form-row">
        <label>
          Recipients from CSV
          <input
            type="file"
            accept=".csv,text/csv"
            aria-label="Recipients from CSV"
            onChange={(event) => {
              const file = event.target.files?.[0];
              setPreview(undefined);
              campaignId.current = undefined;
              if (!file) return setCsv(undefined);
              void file.text().then((content) => setCsv(readCsvRecipients(file.name, content)));
            }}
          />
        </label>
        {csv && (
          <label>
            Number column
            <select
              value={csv.phoneColumn}
              onChange={(event) => changed(setCsv)({ ...csv, phoneColumn: event.target.value })}
            >
              {csv.columns.map((column) => (
                <option key={column}>{column}</option>
              ))}
            </select>
            <span className="hint">{csv.rows.length} rows</span>
          </label>
        )}
      </div>
      <div className="form-row">
        <label>
          Send later
          <input
            type="datetime-local"
            name="bulkSendAt"
            value={sendAt}
            onChange={(event) => changed(setSendAt)(event.target.value)}
          />
          <span className="hint">Empty: send now. Until then all of it waits in the queue.</span>
        </label>
      </div>
      <div className="form-actions">
        <button
          type="button"
          disabled={previewAction.busy || text === ''}
          onClick={() =>
            void previewAction.run(async () => {
              setPreview(await api.previewCampaign(request()));
              setSkipProblems(false);
              return undefined;
            })
          }
        >
          Preview
        </button>
        <button
          type="button"
          className="primary"
          disabled={!ready || sendAction.busy}
          onClick={() =>
            void sendAction.run(async () => {
              campaignId.current ??= newCampaignId();
              const campaign = await api.startCampaign({
                ...request(),
                id: campaignId.current,
                ...(skipProblems ? { skipProblems: true } : {}),
              });
              campaignId.current = undefined;
              setPreview(undefined);
              props.onStarted(campaign);
              return campaign.scheduleAt
                ? `Queued ${campaign.recipients} messages for ${formatDateTime(campaign.scheduleAt)}.`
                : `Queued ${campaign.recipients} messages.`;
            })
          }
        >
          {sendAction.busy ? 'Queueing…' : preview ? `Send to ${preview.recipients} recipients` : 'Send'}
        </button>
        <FormResult result={previewAction.result} />
        <FormResult result={sendAction.result} />
      </div>
      {preview && problems > 0 && preview.recipients > 0 && (
        <div className="form-row">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={skipProblems}
              onChange={(event) => {
                campaignId.current = undefined;
                setSkipProblems(event.target.checked);
              }}
            />
            Skip the {counted(problems, 'recipient')} with a problem and send to the other{' '}
            {counted(preview.recipients, 'recipient')}
          </label>
          {!skipProblems && (
            <span className="hint">Send waits until the problems below are fixed, or skipped.</span>
          )}
        </div>
      )}
      {preview && (
        <PreviewSummary
          preview={preview}
          pastedLines={splitTypedRecipients(numbers).named.map((named) => named.line)}
        />
      )}
      {preview && <SendEstimate preview={preview} />}
    </form>
  );
}

function PreviewSummary(props: { preview: CampaignPreview; pastedLines: number[] }) {
  const { preview } = props;
  const parts =
    preview.partsPerMessage.min === preview.partsPerMessage.max
      ? counted(preview.partsPerMessage.max, 'SMS part')
      : `${preview.partsPerMessage.min}–${preview.partsPerMessage.max} SMS parts`;
  const removed = Object.entries(preview.removed).filter(([, count]) => count > 0);
  return (
    <section className="panel" aria-label="Preview">
      <p role="status">
        {preview.recipients} recipients
        {preview.duplicates > 0 ? ` (${preview.duplicates} duplicates removed)` : ''}
        {removed.map(([filter, count]) => `, ${count} removed by ${filter}`).join('')}; {parts} per message,{' '}
        {counted(preview.totalParts, 'part')} in all.
      </p>
      {preview.samples.length > 0 && (
        <ul className="plain-list" aria-label="Examples">
          {preview.samples.map((sample) => (
            <li key={sample.phoneNumber}>
              <span className="mono">
                {sample.name ? `${sample.name} (${sample.phoneNumber})` : sample.phoneNumber}
              </span>
              : {sample.text}
            </li>
          ))}
        </ul>
      )}
      {preview.problemCount > preview.problems.length && (
        <p className="muted">
          The first {preview.problems.length} of {preview.problemCount} recipients with a problem:
        </p>
      )}
      {preview.problems.length > 0 && (
        <DataTable
          label="Recipients with problems"
          rows={preview.problems}
          rowKey={(problem) => `${problem.field}-${problem.message}`}
          columns={[
            {
              header: 'Recipient',
              cell: (problem) => recipientLabel(problem.field, props.pastedLines),
            },
            { header: 'Problem', cell: (problem) => problem.message },
          ]}
        />
      )}
    </section>
  );
}

/** How long the send takes at the modems' limits (Settings → Messages), from the preview. */
function SendEstimate(props: { preview: CampaignPreview }) {
  const { api } = useApp();
  const devices = useResource(() => api.devices(), [api]);
  const settings = useResource(() => api.settings(), [api]);
  if (!devices.data || !settings.data) return null;
  const ready = devices.data.filter((device) => device.modem?.status === 'ready').length;
  const limits = limitsFrom(settings.data.messages, ready);
  const seconds = campaignSeconds(props.preview.recipients, props.preview.totalParts, limits);
  const limit =
    limits.limitPeriod && limits.limitPeriod !== 'Disabled' && limits.limitValue
      ? `at most ${limits.limitValue} messages ${limitPeriodWords[limits.limitPeriod]} each`
      : 'no limit per period';
  return (
    <p className="hint" role="status" aria-label="Time estimate">
      {seconds === undefined
        ? 'No modem is ready: the messages wait in the queue until one is.'
        : `About ${formatDuration(seconds * 1000)} at the modems' limits (${ready} modem${ready === 1 ? '' : 's'} ready, ${limit}; about ${typicalPartSeconds} s per SMS part).`}
    </p>
  );
}

const limitPeriodWords: Record<string, string> = {
  PerMinute: 'a minute',
  Per30Minutes: 'per 30 minutes',
  PerHour: 'an hour',
  PerDay: 'a day',
};

/**
 * `recipients.phoneNumbers[0]` → "Number 1"; `recipients.rows[i]`: the recipients pasted with
 * names come first ("Numbers line 3", the line of the box), then the CSV's ("CSV line 5": its
 * header is line 1).
 */
function recipientLabel(field: string, pastedLines: number[]): string {
  const match = /^recipients\.(\w+)(?:\[(\d+)\])?$/.exec(field);
  const index = Number(match?.[2] ?? 0);
  if (match?.[1] === 'rows') {
    const pastedLine = pastedLines[index];
    return pastedLine !== undefined
      ? `Numbers line ${pastedLine}`
      : `CSV line ${index - pastedLines.length + 2}`;
  }
  if (match?.[1] === 'phoneNumbers') return `Number ${index + 1}`;
  if (match?.[1] === 'contactIds') return `Contact ${index + 1}`;
  return 'Group member';
}
