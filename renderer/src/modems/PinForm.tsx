import { type FormEvent, useState } from 'react';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';

/** SIM PIN entry (AT+CPIN, TS 27.007 §8.3). */
export function PinForm(props: { deviceId: string; wrongBefore: boolean; onDone: () => void }) {
  const { api } = useApp();
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: true; text: string } | { ok: false; error: unknown }>();
  const valid = /^\d{4,8}$/.test(pin);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    setBusy(true);
    setResult(undefined);
    try {
      await api.enterPin(props.deviceId, pin);
      setPin('');
      setResult({ ok: true, text: 'PIN sent. The modem is unlocking the SIM.' });
      props.onDone();
    } catch (error) {
      setResult({ ok: false, error });
    } finally {
      setBusy(false);
    }
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
