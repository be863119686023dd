import { type FormEvent, useState } from 'react';
import type { NewPhoneRequest } from '../api/types.js';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

/**
 * Adds an Android phone running the SMS Gateway for Android app: on USB (what adb lists, one
 * click and the app's password) or on Wi-Fi (the address, user and password the app shows in
 * its Local server settings). The password goes to the gateway only; it is never shown again.
 */
export function AndroidPhonePanel(props: { onAdded: () => void }) {
  const { api } = useApp();
  const usb = useResource(() => api.usbPhones(), [api]);
  const [serial, setSerial] = useState<string>();
  const [url, setUrl] = useState('');
  const [username, setUsername] = useState('sms');
  const [password, setPassword] = useState('');
  const { busy, result, run } = useAction();
  const validUrl = serial !== undefined || /^https?:\/\/[^@/\s]+\/?$/.test(url);
  const canAdd = validUrl && password !== '' && username !== '';

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!canAdd) return;
    const request: NewPhoneRequest =
      serial !== undefined ? { serial, username, password } : { url, username, password };
    const added = await run(async () => {
      const device = await api.addPhone(request);
      return device.modem.status === 'ready'
        ? `Added ${device.name}.`
        : `Added ${device.name}; it has not answered yet. Check that the app's Local server is on.`;
    });
    if (!added) return;
    setPassword('');
    setSerial(undefined);
    usb.reload();
    props.onAdded();
  }

  const listed = usb.data?.phones ?? [];
  return (
    <form className="panel" aria-label="Android phone" onSubmit={(event) => void add(event)}>
      <p className="muted">
        An Android phone sends and receives through the <strong>SMS Gateway for Android</strong> app: install
        it, switch on its Local server, then add the phone here by USB (with USB debugging allowed) or by its
        Wi-Fi address.
      </p>
      {usb.data?.adb === 'unavailable' && <p className="muted">USB: {usb.data.detail}</p>}
      {listed.length > 0 && (
        <ul className="plain" aria-label="Phones on USB">
          {listed.map((phone) => (
            <li key={phone.serial}>
              <strong>{phone.model ?? phone.serial}</strong> <span className="muted">({phone.serial})</span>{' '}
              {phone.inUse ? (
                <span className="muted">in use</span>
              ) : phone.advice ? (
                <span className="note note-warn">{phone.advice}</span>
              ) : (
                <button
                  type="button"
                  aria-pressed={serial === phone.serial}
                  onClick={() => setSerial(phone.serial)}
                >
                  Use this phone
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {serial === undefined && (
        <label>
          Wi-Fi address of the app
          <input
            value={url}
            placeholder="http://192.168.1.20:8080"
            aria-invalid={url !== '' && !validUrl}
            onChange={(event) => setUrl(event.target.value.trim())}
          />
        </label>
      )}
      {serial !== undefined && <p>Phone on USB: {serial}</p>}
      <label>
        App user
        <input value={username} onChange={(event) => setUsername(event.target.value.trim())} />
      </label>
      <label>
        App password
        <input
          type="password"
          autoComplete="off"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || !canAdd}>
          Add Android phone
        </button>
        <FormResult result={result} />
      </div>
    </form>
  );
}
