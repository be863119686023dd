import { type FormEvent, useState } from 'react';
import { formattedNumberKey } from '../../../server/contract/domain/peerKey.js';
import { simulatedPhoneNumberSchema } from '../../../server/contract/schemas/gatewaySchemas.js';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';

/**
 * The refusals a real modem most often answers a send with (+CMS ERROR codes: TS 24.011 Annex E
 * for the network's, TS 27.005 §3.2.5 for the modem's own), in the words staff will meet.
 */
const failureChoices = [
  { cmsCode: 38, meaning: 'Network out of order' },
  { cmsCode: 21, meaning: 'Short message transfer rejected' },
  { cmsCode: 1, meaning: 'Unassigned number' },
  { cmsCode: 42, meaning: 'Congestion' },
  { cmsCode: 331, meaning: 'No network service' },
  { cmsCode: 500, meaning: 'Unknown error' },
] as const;

/**
 * Lets staff see what a failure looks like before a real one happens: the simulated modem
 * refuses its next sends (or only those to one number) with the error chosen, and the message
 * ends Failed with it, as it would on a real modem.
 */
export function SimulateFailureForm(props: { deviceId: string }) {
  const { api } = useApp();
  const [cmsCode, setCmsCode] = useState<number>(failureChoices[0].cmsCode);
  const [count, setCount] = useState('1');
  const [recipient, setRecipient] = useState('');
  const { busy, result, run } = useAction();
  const prefix = `simulate-failure-${props.deviceId}`;
  const number = formattedNumberKey(recipient);
  const numberValid = recipient.trim() === '' || simulatedPhoneNumberSchema.safeParse(number).success;
  const sends = Number(count);
  const countValid = Number.isInteger(sends) && sends >= 1 && sends <= 100;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!numberValid || !countValid) return;
    await run(async () => {
      const phoneNumber = recipient.trim() === '' ? undefined : number;
      await api.simulateSendFailure(props.deviceId, {
        cmsCode,
        count: sends,
        ...(phoneNumber === undefined ? {} : { phoneNumber }),
      });
      const which = sends === 1 ? 'The next send' : `The next ${sends} sends`;
      return `${which}${phoneNumber === undefined ? '' : ` to ${phoneNumber}`} will fail with +CMS ERROR ${cmsCode}.`;
    });
  }

  return (
    <form className="compose" onSubmit={(event) => void submit(event)} aria-label="Simulate a failed send">
      <div className="form-row">
        <label htmlFor={`${prefix}-code`}>
          Error
          <select
            id={`${prefix}-code`}
            value={cmsCode}
            onChange={(event) => setCmsCode(Number(event.target.value))}
          >
            {failureChoices.map((choice) => (
              <option key={choice.cmsCode} value={choice.cmsCode}>
                {choice.meaning} (+CMS ERROR {choice.cmsCode})
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={`${prefix}-count`}>
          Sends
          <input
            id={`${prefix}-count`}
            inputMode="numeric"
            value={count}
            aria-invalid={!countValid}
            onChange={(event) => setCount(event.target.value)}
          />
        </label>
        <label htmlFor={`${prefix}-number`} className="grow">
          Only to (optional)
          <input
            id={`${prefix}-number`}
            value={recipient}
            placeholder="Any number"
            aria-invalid={!numberValid}
            aria-describedby={numberValid ? undefined : `${prefix}-number-error`}
            onChange={(event) => setRecipient(event.target.value)}
          />
          {!numberValid && (
            <span id={`${prefix}-number-error`} className="field-error">
              A phone number: 3 to 15 digits, with + and spaces, dashes or brackets if you like.
            </span>
          )}
        </label>
      </div>
      {!countValid && <p className="field-error">Sends: a whole number from 1 to 100.</p>}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || !numberValid || !countValid}>
          Fail them
        </button>
        <FormResult result={result} />
      </div>
    </form>
  );
}
