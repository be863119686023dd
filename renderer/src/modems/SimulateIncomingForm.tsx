import { type FormEvent, useState } from 'react';
import { formattedNumberKey } from '../../../server/contract/domain/peerKey.js';
import { simulatedPhoneNumberSchema } from '../../../server/contract/schemas/gatewaySchemas.js';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';

/**
 * Lets a new user try the Inbox, conversations and webhooks without hardware: the simulated
 * modem receives an SMS as if a phone had sent it, and the gateway reads it like any other.
 */
export function SimulateIncomingForm(props: { deviceId: string }) {
  const { api } = useApp();
  const [sender, setSender] = useState('+15550001111');
  const [text, setText] = useState('Hello from a simulated phone');
  const { busy, result, run } = useAction();
  const prefix = `simulate-${props.deviceId}`;
  // A number as people write it, "(555) 000-1111" or "+44 7700 900123", sent as its digits.
  const number = formattedNumberKey(sender);
  const numberValid = simulatedPhoneNumberSchema.safeParse(number).success;
  const valid = numberValid && text !== '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    await run(async () => {
      await api.simulateIncoming(props.deviceId, number, text);
      return `Received from ${number}: see the Inbox.`;
    });
  }

  return (
    <form className="compose" onSubmit={(event) => void submit(event)} aria-label="Simulate incoming SMS">
      <div className="form-row">
        <label htmlFor={`${prefix}-sender`}>
          From
          <input
            id={`${prefix}-sender`}
            value={sender}
            aria-invalid={!numberValid}
            aria-describedby={numberValid ? undefined : `${prefix}-sender-error`}
            onChange={(event) => setSender(event.target.value)}
          />
          {!numberValid && (
            <span id={`${prefix}-sender-error`} className="field-error">
              A phone number: 3 to 15 digits, with + and spaces, dashes or brackets if you like.
            </span>
          )}
        </label>
        <label htmlFor={`${prefix}-text`} className="grow">
          Text
          <input id={`${prefix}-text`} value={text} onChange={(event) => setText(event.target.value)} />
        </label>
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || !valid}>
          Receive it
        </button>
        <FormResult result={result} />
      </div>
    </form>
  );
}
