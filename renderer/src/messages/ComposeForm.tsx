import { type FormEvent, useMemo, useRef, useState } from 'react';
import { EXPEDITED_PRIORITY } from '../../../server/contract/domain/messageOrder.js';
import {
  missingText,
  placeholdersOf,
  recipientFields,
  renderPlaceholders,
} from '../../../server/contract/domain/placeholders.js';
import { planText } from '../../../server/contract/pdu/index.js';
import { PriorityRange } from '../../../server/contract/schemas/messageSchemas.js';
import type { DeviceRecord, MessageRecord, SendMessageRequest } from '../api/types.js';
import { useApp } from '../appContext.js';
import { IdSelect } from '../components/IdSelect.js';
import { FormResult } from '../components/StatusViews.js';
import { numberExample } from '../desk/numberExample.js';
import { TemplatePicker } from '../desk/TemplatePicker.js';
import { readTypedNumbers } from '../desk/typedNumbers.js';
import { useContactNames, useOptedOut } from '../desk/useContactNames.js';
import { useDefaultCountry } from '../desk/useDefaultCountry.js';
import { counted, formatNumber } from '../format/numberFormat.js';
import { formatDateTime } from '../format/timeFormat.js';
import { modemLabel } from '../modems/modemLabel.js';
import { useAction } from '../useAction.js';

/** Compose and send one text message (POST /messages). */
export function ComposeForm(props: {
  devices: DeviceRecord[] | undefined;
  onSent: (message: MessageRecord) => void;
  /** Opens the message just sent (the Messages screen); absent where there is nothing to open. */
  onView?: (message: MessageRecord) => void;
  /** Fixed modem (the Modems screen's test send). */
  deviceId?: string;
  idPrefix?: string;
  compact?: boolean;
}) {
  const { api } = useApp();
  const prefix = props.idPrefix ?? 'compose';
  const [recipients, setRecipients] = useState('');
  const recipientsField = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [deviceId, setDeviceId] = useState(props.deviceId ?? '');
  const [simNumber, setSimNumber] = useState('');
  const [priority, setPriority] = useState('0');
  const [deliveryReport, setDeliveryReport] = useState(true);
  const [ttl, setTtl] = useState('');
  /** "Send later": a local date and time from the datetime-local input, '' for now. */
  const [sendAt, setSendAt] = useState('');
  const { busy, result, run } = useAction();
  const [sent, setSent] = useState<MessageRecord | undefined>(undefined);

  const plan = useMemo(() => planText(text), [text]);
  const defaultCountry = useDefaultCountry();
  const { numbers, problems: numberProblems } = readTypedNumbers(recipients, defaultCountry);
  const nameOf = useContactNames(numbers);
  const optedOut = useOptedOut(numbers);
  const personal = placeholdersOf(text).length > 0;
  const rendered = numbers.map((number) => ({
    number,
    result: renderPlaceholders(text, recipientFields(number, nameOf(number))),
  }));
  const unfilled = rendered.flatMap(({ number, result }) =>
    result.ok ? [] : [`No value for ${missingText(result.missing)} for ${number}`],
  );
  const device = props.devices?.find((entry) => entry.id === (props.deviceId ?? deviceId));
  // Only the chosen modem's SIMs exist; with "Any available" the settings decide the SIM.
  const simSlots = device?.simCards.map((sim) => sim.simNumber) ?? [];
  const priorityValue = Number(priority);
  const priorityValid =
    Number.isInteger(priorityValue) &&
    priorityValue >= PriorityRange.min &&
    priorityValue <= PriorityRange.max;
  const ttlValid = ttl === '' || (Number.isInteger(Number(ttl)) && Number(ttl) > 0);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    const request: SendMessageRequest = {
      phoneNumbers: numbers,
      textMessage: { text },
      withDeliveryReport: deliveryReport,
    };
    const chosenDevice = props.deviceId ?? deviceId;
    if (chosenDevice) request.deviceId = chosenDevice;
    if (simNumber) request.simNumber = Number(simNumber);
    if (priorityValue !== 0) request.priority = priorityValue;
    if (ttl) request.ttl = Number(ttl);
    if (sendAt) request.scheduleAt = new Date(sendAt).toISOString();
    setSent(undefined);
    // Placeholders make each recipient's text their own: one message per recipient, filled from
    // the address book as a bulk send fills them.
    const requests = personal
      ? rendered.map(({ number, result }) => ({
          ...request,
          phoneNumbers: [number],
          textMessage: { text: result.ok ? result.text : text },
        }))
      : [request];
    const queued = await run(async () => {
      let message: MessageRecord | undefined;
      for (const each of requests) {
        message = await api.sendMessage(each);
        props.onSent(message);
      }
      setText('');
      setRecipients('');
      setSendAt('');
      setSent(message);
      return request.scheduleAt
        ? `Scheduled for ${formatDateTime(request.scheduleAt)} to ${numbers.join(', ')}.`
        : `Queued for ${numbers.join(', ')}.`;
    });
    // The Send button is disabled once the form is cleared and would take the focus with it:
    // it goes to the first field, for the next message (the result is announced as a status).
    if (queued) recipientsField.current?.focus();
  }

  const ready =
    numbers.length > 0 &&
    numberProblems.length === 0 &&
    unfilled.length === 0 &&
    text !== '' &&
    priorityValid &&
    ttlValid;
  const encodingLabel = plan.encoding === 'gsm7' ? 'GSM 7-bit' : 'Unicode (UCS-2)';
  return (
    <form className="compose" onSubmit={(event) => void submit(event)} aria-label="Compose message">
      <div className="field">
        <label htmlFor={`${prefix}-recipients`}>Recipients</label>
        <textarea
          id={`${prefix}-recipients`}
          ref={recipientsField}
          name="recipients"
          rows={2}
          required
          placeholder={`${numberExample(defaultCountry)}, +44 20 7946 0958`}
          aria-describedby={`${prefix}-recipients-hint`}
          aria-invalid={numberProblems.length > 0}
          value={recipients}
          onChange={(event) => setRecipients(event.target.value)}
        />
        <span id={`${prefix}-recipients-hint`} className="hint">
          As you would dial them (without + the default country in Settings applies); separate several with
          commas or new lines.
        </span>
        {optedOut.length > 0 && (
          <p className="form-warning" role="alert" aria-label="Opted-out numbers">
            {optedOut.join(', ')} asked not to be texted (the opt-out list): the message to{' '}
            {optedOut.length === 1 ? 'it' : 'them'} will fail. Take a number off the list on the Opt-outs
            screen only with their consent.
          </p>
        )}
        {numberProblems.length > 0 && (
          <ul className="form-error" role="alert" aria-label="Numbers that cannot be read">
            {numberProblems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-text`}>Message</label>
        <TemplatePicker id={`${prefix}-template`} onPick={setText} />
        <textarea
          id={`${prefix}-text`}
          name="text"
          rows={props.compact ? 2 : 4}
          required
          aria-describedby={`${prefix}-counter`}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <span id={`${prefix}-counter`} className="hint counter" aria-live="polite">
          {text.length === 0
            ? 'Up to 160 GSM characters fit in one SMS (70 with emoji or non-Latin letters).'
            : `${personal ? 'Before placeholders are filled: ' : ''}${encodingLabel}: ${characterCount(text, plan)}, ${counted(plan.parts, 'SMS part')}, ${plan.remainingInPart} left in this part.`}
        </span>
        {unfilled.length > 0 && (
          <>
            <ul className="form-error" role="alert" aria-label="Placeholders without a value">
              {unfilled.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
            <span className="hint">
              Only {'{name}'} (a saved contact's) and {'{phone}'} are filled in; type anything else into the
              text.
            </span>
          </>
        )}
      </div>
      {!props.compact && (
        <div className="form-row">
          {!props.deviceId && (
            <IdSelect
              label="Modem"
              none="Any available"
              choices={props.devices}
              nameOf={modemLabel}
              value={deviceId}
              onChange={(id) => {
                setDeviceId(id);
                setSimNumber('');
              }}
            />
          )}
          <label>
            SIM
            <select value={simNumber} onChange={(event) => setSimNumber(event.target.value)}>
              <option value="">By settings</option>
              {simSlots.map((slot) => (
                <option key={slot} value={slot}>
                  SIM {slot}
                </option>
              ))}
            </select>
          </label>
          <label>
            Priority
            <input
              type="number"
              min={PriorityRange.min}
              max={PriorityRange.max}
              value={priority}
              aria-invalid={!priorityValid}
              onChange={(event) => setPriority(event.target.value)}
            />
            <span className="hint">
              {priorityValue >= EXPEDITED_PRIORITY
                ? 'Urgent: skips limits and delays.'
                : `Higher goes first; 0 is normal, ${EXPEDITED_PRIORITY} or more is urgent and skips limits (${PriorityRange.min} to ${PriorityRange.max}).`}
            </span>
          </label>
          <label>
            Expires after (s)
            <input
              type="number"
              min={1}
              placeholder="never"
              value={ttl}
              aria-invalid={!ttlValid}
              onChange={(event) => setTtl(event.target.value)}
            />
          </label>
          <label>
            Send later
            <input
              type="datetime-local"
              name="sendAt"
              value={sendAt}
              onChange={(event) => setSendAt(event.target.value)}
            />
            <span className="hint">Empty: send now. Editable until it starts.</span>
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={deliveryReport}
              onChange={(event) => setDeliveryReport(event.target.checked)}
            />
            Delivery report
          </label>
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || !ready}>
          {busy
            ? 'Sending…'
            : `${sendAt ? 'Schedule' : 'Send'}${numbers.length > 1 ? ` to ${numbers.length} recipients` : ''}`}
        </button>
        <FormResult result={result} />
        {sent && props.onView && result?.ok && (
          <button type="button" className="link-button" onClick={() => props.onView?.(sent)}>
            View message
          </button>
        )}
      </div>
    </form>
  );
}

/**
 * The characters as typed, and how many of them take two places in an SMS: in GSM 7-bit the
 * extension characters (€ [ ] { } ~ \ | ^, TS 23.038 §6.2.1.1), in UCS-2 emoji and other
 * characters beyond 16 bits. The part count is made of places, not characters.
 */
function characterCount(text: string, plan: { unitsUsed: number; encoding: string }): string {
  const characters = [...text].length;
  const doubled = plan.unitsUsed - characters;
  if (doubled <= 0) return counted(characters, 'character');
  const which = plan.encoding === 'gsm7' ? '€ [ ] { } ~ \\ | ^' : 'emoji and rare characters';
  return `${counted(characters, 'character')} (${formatNumber(doubled)} of them ${doubled === 1 ? 'counts' : 'count'} twice: ${which})`;
}
