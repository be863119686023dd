import type { FormEvent } from 'react';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { usePerson } from '../session/person.js';
import { useAction } from '../useAction.js';
import { usePasswordChange } from './usePasswordChange.js';

/**
 * The signed-in person's own password (PUT /gateway/v1/me/password), for every role. The change
 * ends the tokens issued to them, this window's included, so it signs in again with the new one.
 */
export function OwnPasswordPanel() {
  const { api, changeLogin } = useApp();
  const { me } = usePerson();
  const fields = usePasswordChange();
  const { current, password, repeated, mismatch } = fields;
  const { busy, result, run } = useAction();
  const ready = me !== undefined && fields.complete;
  async function change(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    const changed = await run(async () => {
      await changeLogin(
        () => api.changeOwnPassword({ currentPassword: current, password }),
        me.name,
        password,
      );
      return 'Your password is changed.';
    });
    if (changed) fields.clear();
  }
  return (
    <details className="own-password">
      <summary>Change my password</summary>
      <form aria-label="Change my password" onSubmit={(event) => void change(event)}>
        <label>
          Current password
          <input
            type="password"
            value={current}
            onChange={(event) => fields.setCurrent(event.target.value)}
            autoComplete="current-password"
          />
        </label>
        <label>
          New password (8 characters or more)
          <input
            type="password"
            value={password}
            onChange={(event) => fields.setPassword(event.target.value)}
            autoComplete="new-password"
          />
        </label>
        <label>
          Repeat the new password
          <input
            type="password"
            value={repeated}
            aria-invalid={mismatch}
            onChange={(event) => fields.setRepeated(event.target.value)}
            autoComplete="new-password"
          />
          {mismatch && <span className="field-error">The two passwords differ.</span>}
        </label>
        <button type="submit" disabled={busy || !ready}>
          Change
        </button>
      </form>
      <FormResult result={result} />
    </details>
  );
}
