import { type FormEvent, useState } from 'react';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';

/** SIM PIN entry (AT+CPIN, TS 27.007 §8.3). */
export function PinForm(props: { deviceId: string; wrongBefore: boolean; onDone: () => void }) {
  const { api } = useApp();
  const [pin, setPin] = useState('');
  const { busy, result, run } = useAction();
  const valid = /^\d{4,8}$/.test(pin);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    const sent = await run(async () => {
      await api.enterPin(props.deviceId, pin);
      return 'PIN sent. The modem is unlocking the SIM.';
    });
    if (!sent) return;
    setPin('');
    props.onDone();
  }

  return (
    <form className="pin-form" onSubmit={(event) => void submit(event)}>
      <p className="note note-warn">
        {props.wrongBefore ? 'The last PIN was wrong. ' : ''}A wrong PIN is never retried automatically: after
        three wrong PINs the SIM locks and needs its PUK.
      </p>
      <label>
        SIM PIN
        <input
          type="password"
          inputMode="numeric"
          autoComplete="off"
          pattern="\d{4,8}"
          value={pin}
          aria-invalid={pin !== '' && !valid}
          onChange={(event) => setPin(event.target.value.trim())}
        />
        <span className="hint">4 to 8 digits.</span>
      </label>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || !valid}>
          Unlock SIM
        </button>
        <FormResult result={result} />
      </div>
    </form>
  );
}
