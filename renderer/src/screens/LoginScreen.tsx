import { type FormEvent, useEffect, useRef, useState } from 'react';
import { describeError } from '../api/apiClient.js';
import { logIn, type Session } from '../session/session.js';

/** Browser sign-in: the gateway's Basic user exchanges its password for a working-day token. */
export function LoginScreen(props: { baseUrl: string; onLoggedIn: (session: Session) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const usernameInput = useRef<HTMLInputElement>(null);
  // The form is the only thing on the page: start typing at once.
  useEffect(() => usernameInput.current?.focus(), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      props.onLoggedIn(await logIn(props.baseUrl, username.trim(), password));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <main className="centered">
      <form className="card login" onSubmit={(event) => void submit(event)} aria-labelledby="login-title">
        <h1 id="login-title">Desktop SMS Gateway</h1>
        <p className="muted">Sign in with the gateway's username and password.</p>
        <label>
          Username
          <input
            ref={usernameInput}
            name="username"
            autoComplete="username"
            required
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        </label>
        <label htmlFor="login-password">Password</label>
        <div className="password-row">
          <input
            id="login-password"
            name="password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          {/* Named "Show" only, so it is not a second control labelled "password". */}
          <button
            type="button"
            aria-pressed={showPassword}
            aria-controls="login-password"
            onClick={() => setShowPassword(!showPassword)}
          >
            Show
          </button>
        </div>
        {error !== undefined && (
          <p className="form-error" role="alert">
            {describeError(error)}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">
          The gateway prints its generated username and password on its first start; they can also be set with
          the
          <code> --username</code> / <code>--password</code> options when starting it.
        </p>
      </form>
    </main>
  );
}
