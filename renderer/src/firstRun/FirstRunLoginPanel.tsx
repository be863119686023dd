import { useEffect, useState } from 'react';
import type { FirstRunLogin } from '../../../electron/firstRunLogin.js';
import { useApp } from '../appContext.js';
import { CopyButton } from '../components/CopyButton.js';

/**
 * The login generated on first run, shown in the desktop window until the user says they saved
 * it: the gateway keeps only its hash, and a packaged app has no console to print it to. Only
 * on the window's owner session: a person signed in as themselves is not shown the owner's.
 */
export function FirstRunLoginPanel() {
  const { desktop, session } = useApp();
  const [login, setLogin] = useState<FirstRunLogin | undefined>(undefined);
  useEffect(() => {
    desktop?.getFirstRunLogin().then(setLogin, () => setLogin(undefined));
  }, [desktop]);
  if (!desktop || session.mode !== 'desktop' || !login) return null;
  async function saved() {
    await desktop?.confirmFirstRunLoginSaved();
    setLogin(undefined);
  }
  return (
    <section className="panel first-run" aria-labelledby="first-run-title">
      <h2 id="first-run-title">Your login for the API</h2>
      <p>
        Apps that send SMS through this gateway log in with this user and password. It was generated now and
        is shown only until you confirm you saved it: the gateway keeps just a hash of it.
      </p>
      <dl className="facts facts-wide">
        <dt>User</dt>
        <dd>
          <code>{login.username}</code> <CopyButton text={login.username} />
        </dd>
        <dt>Password</dt>
        <dd>
          <code>{login.password}</code> <CopyButton text={login.password} />
        </dd>
      </dl>
      <div className="form-actions">
        <button type="button" className="primary" onClick={() => void saved()}>
          I saved it
        </button>
        <a href="#/api">Change it</a>
      </div>
    </section>
  );
}
