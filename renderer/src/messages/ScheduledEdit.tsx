import { type FormEvent, useState } from 'react';
import type { MessageRecord } from '../api/types.js';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { formatDateTime } from '../format/timeFormat.js';
import { useAction } from '../useAction.js';
import { messageText } from './messageRows.js';

/** `2026-11-25T16:30` for a datetime-local input, in this computer's zone. */
function localInputValue(iso: string): string {
  const at = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/**
 * A scheduled message still waiting for its time: change the time or the text (our extension
 * PATCH /gateway/v1/messages/{id}); cancelling is the detail's "Cancel message".
 */
export function ScheduledEdit(props: {
  message: MessageRecord;
  onChanged: (message: MessageRecord) => void;
}) {
  const { api } = useApp();
  const { message } = props;
  const [sendAt, setSendAt] = useState(() => (message.scheduleAt ? localInputValue(message.scheduleAt) : ''));
  const [text, setText] = useState(() => messageText(message));
  const { busy, result, run } = useAction();
  const editableText = message.textMessage !== undefined && !message.isEncrypted;

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      const edit: { scheduleAt?: string; text?: string } = {};
      if (sendAt) edit.scheduleAt = new Date(sendAt).toISOString();
      if (editableText && text !== messageText(message)) edit.text = text;
      const changed = await api.editScheduledMessage(message.id, edit);
      props.onChanged(changed);
      return `Scheduled for ${formatDateTime(changed.scheduleAt)}.`;
    });
  }

  return (
    <form className="form-row" onSubmit={(event) => void submit(event)} aria-label="Edit scheduled message">
      <label>
        Send at
        <input
          type="datetime-local"
          name="scheduleAt"
          value={sendAt}
          onChange={(event) => setSendAt(event.target.value)}
        />
      </label>
      {editableText && (
        <label className="grow">
          Text
          <textarea
            name="scheduledText"
            rows={2}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </label>
      )}
      <div className="form-actions">
        <button type="submit" disabled={busy || sendAt === ''}>
          Save changes
        </button>
        <FormResult result={result} />
      </div>
    </form>
  );
}
