import { type FormEvent, useState } from 'react';
import type { IssuedTokenView, TokenResponse } from '../api/types.js';
import { curlSendExample, tokenScopes } from '../apiAccess/apiExamples.js';
import { useApp } from '../appContext.js';
import { ConfirmButton } from '../components/ConfirmButton.js';
import { CopyButton } from '../components/CopyButton.js';
import { DataTable } from '../components/DataTable.js';
import { ErrorNote, FormResult } from '../components/StatusViews.js';
import { formatDateTime } from '../format/timeFormat.js';
import { usePasswordChange } from '../people/usePasswordChange.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

/** The gateway refuses an access token longer than 30 days (720 h, server/services/auth/tokenService.ts). */
const ttlChoices = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days' },
];

export function ApiAccessScreen() {
  const { session, desktop } = useApp();
  const [created, setCreated] = useState<TokenResponse | undefined>(undefined);
  const docsUrl = `${session.baseUrl.replace(/\/$/, '')}/docs`;
  const curl = curlSendExample(session.baseUrl, { token: created?.access_token, username: session.username });

  return (
    <>
      <header className="page-head">
        <h1>API access</h1>
        <div className="head-actions">
          {desktop ? (
            <button type="button" onClick={() => void desktop.openApiDocs()}>
              Open API documentation
            </button>
          ) : (
            <a className="button" href={docsUrl} target="_blank" rel="noreferrer">
              Open API documentation
            </a>
          )}
        </div>
      </header>
      <section className="panel" aria-labelledby="connection-title">
        <h2 id="connection-title">Connection</h2>
        <dl className="facts facts-wide">
          <dt>Base URL</dt>
          <dd>
            <code>{session.baseUrl}</code> <CopyButton text={session.baseUrl} />
          </dd>
          <dt>Basic user</dt>
          <dd>
            {session.username ? (
              <code>{session.username}</code>
            ) : (
              <span className="muted">
                The gateway’s username (printed at first start, or set with --username).
              </span>
            )}
          </dd>
          <dt>Also served at</dt>
          <dd>
            <code>/3rdparty/v1</code> and <code>/api/3rdparty/v1</code>, for clients configured for the cloud
            or a private server.
          </dd>
        </dl>
      </section>
      <section className="panel" aria-labelledby="curl-title">
        <h2 id="curl-title">Send an SMS from the command line</h2>
        <pre className="terminal wrap">{curl}</pre>
        <CopyButton text={curl} label="Copy command" />
        {!created && (
          <p className="hint">Replace PASSWORD, or create a token below and the command will use it.</p>
        )}
      </section>
      <CreateTokenPanel created={created} onCreated={setCreated} />
      <IssuedTokensPanel created={created} />
      <ChangeLoginPanel />
    </>
  );
}

function CreateTokenPanel(props: {
  created: TokenResponse | undefined;
  onCreated: (token: TokenResponse) => void;
}) {
  const { api, session } = useApp();
  const [scopes, setScopes] = useState<string[]>(['messages:send', 'messages:read']);
  const [ttl, setTtl] = useState(String(ttlChoices[1]?.seconds ?? 86_400));
  const [username, setUsername] = useState(session.username ?? '');
  const [password, setPassword] = useState('');
  const { busy, result, run } = useAction();

  async function create(event: FormEvent) {
    event.preventDefault();
    if (scopes.length === 0) return;
    await run(async () => {
      props.onCreated(await api.createToken(scopes, Number(ttl), { username, password }));
      setPassword('');
      return undefined;
    });
  }

  function toggle(scope: string, on: boolean) {
    setScopes(on ? [...scopes, scope] : scopes.filter((entry) => entry !== scope));
  }

  return (
    <section className="panel" aria-labelledby="token-title">
      <h2 id="token-title">Create an access token</h2>
      <form onSubmit={(event) => void create(event)}>
        <fieldset className="scope-grid">
          <legend>Allowed to</legend>
          {tokenScopes.map((entry) => (
            <label key={entry.scope} className="checkbox">
              <input
                type="checkbox"
                checked={scopes.includes(entry.scope)}
                onChange={(event) => toggle(entry.scope, event.target.checked)}
              />
              <span>
                {entry.meaning} <code className="small">{entry.scope}</code>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="form-row">
          <label>
            Valid for
            <select value={ttl} onChange={(event) => setTtl(event.target.value)}>
              {ttlChoices.map((choice) => (
                <option key={choice.seconds} value={choice.seconds}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <p className="hint">
          Confirm with the gateway’s login: a token made from this window’s sign-in would end when the sign-in
          does.
        </p>
        <div className="form-row">
          <label>
            User name
            <input
              value={username}
              autoComplete="username"
              required
              onChange={(event) => setUsername(event.target.value)}
            />
          </label>
          <label>
            Password
            <input
              type="password"
              value={password}
              autoComplete="current-password"
              required
              onChange={(event) => setPassword(event.target.value)}
            />
          </label>
        </div>
        <div className="form-actions">
          <button
            type="submit"
            className="primary"
            disabled={busy || scopes.length === 0 || username === '' || password === ''}
          >
            Create token
          </button>
          <FormResult result={result} />
        </div>
      </form>
      {props.created && (
        <div className="note note-info token-once" role="status">
          <p>
            <strong>Copy this token now — it is not shown again.</strong> ID <code>{props.created.id}</code>,
            valid until {formatDateTime(props.created.expires_at)}.
          </p>
          <pre className="terminal wrap">{props.created.access_token}</pre>
          <CopyButton text={props.created.access_token} label="Copy token" />
        </div>
      )}
    </section>
  );
}

const issuerLabels: Record<IssuedTokenView['issuedBy'], string> = {
  window: 'Sign-in of this app',
  password: 'The password',
  token: 'Another token',
};

/**
 * Every live token (GET /gateway/v1/tokens): one line per token created, with every token
 * refreshed from it, so that a leaked one can be found and ended. Revoking a line ends them all.
 */
function IssuedTokensPanel(props: { created: TokenResponse | undefined }) {
  const { api } = useApp();
  const tokens = useResource(() => api.issuedTokens(), [api, props.created]);
  const { busy, result, run } = useAction();
  const revoke = (id: string) =>
    run(async () => {
      await api.revokeToken(id);
      tokens.reload();
      return `Token ${id} is revoked, with every token refreshed from it.`;
    });
  const revokeAll = async () => {
    await run(async () => {
      await api.revokeAllTokens();
      tokens.reload();
      return 'Every token is revoked. Apps sign in again with the password or new tokens.';
    });
  };
  return (
    <section className="panel" aria-labelledby="issued-title">
      <h2 id="issued-title">Issued tokens</h2>
      <p className="hint">
        Each line is a token with every token refreshed from it; revoking it ends them all. A token you do not
        recognise may have leaked: revoke it, or revoke all and change the password.
      </p>
      {tokens.error !== undefined ? (
        <ErrorNote error={tokens.error} onRetry={tokens.reload} />
      ) : (
        <div className="table-scroll">
          <DataTable
            label="Issued tokens"
            rows={tokens.data ?? []}
            rowKey={(token) => token.id}
            compact
            columns={[
              {
                header: 'ID',
                className: 'mono small wrap-anywhere',
                cell: (token) => (
                  <>
                    {token.id} {token.current && <span className="badge badge-neutral">this window</span>}
                  </>
                ),
              },
              {
                header: 'Allowed to',
                className: 'small wrap-anywhere',
                cell: (token) => token.scopes.join(', '),
              },
              { header: 'Made with', cell: (token) => issuerLabels[token.issuedBy] },
              {
                header: 'Created',
                className: 'nowrap',
                cell: (token) => formatDateTime(token.issuedAt),
              },
              {
                header: 'Ends',
                className: 'nowrap',
                cell: (token) => formatDateTime(token.expiresAt),
              },
              {
                header: 'Last used',
                className: 'nowrap',
                cell: (token) => (token.lastUsedAt ? formatDateTime(token.lastUsedAt) : '—'),
              },
              {
                header: 'Actions',
                headerHidden: true,
                cell: (token) => (
                  <>
                    <button
                      type="button"
                      className="button-small danger-outline"
                      disabled={busy}
                      aria-label={`Revoke ${token.id}`}
                      onClick={() => void revoke(token.id)}
                    >
                      Revoke
                    </button>
                  </>
                ),
              },
            ]}
          />
        </div>
      )}
      <div className="form-actions">
        <ConfirmButton
          label="Revoke all"
          disabled={busy}
          question="Revoke every token, this window’s sign-in included?"
          confirmLabel="Yes, revoke all"
          keepLabel="Keep them"
          onConfirm={() => void revokeAll()}
        />
        <FormResult result={result} />
      </div>
    </section>
  );
}

/**
 * The Basic user and password (PUT /gateway/v1/credentials): what API clients and the sign-in
 * form use. It takes the current password, and ends every token issued before: the window signs
 * in again with the new login.
 */
function ChangeLoginPanel() {
  const { api, session, changeLogin } = useApp();
  const [username, setUsername] = useState(session.username ?? 'sms');
  const fields = usePasswordChange();
  const { current, password, repeated, mismatch } = fields;
  const [shown, setShown] = useState(false);
  const { busy, result, run } = useAction();
  const ready = fields.complete && username.trim() !== '';
  async function change(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    const changed = await run(async () => {
      const login = { currentPassword: current, username: username.trim(), password };
      await changeLogin(() => api.changeLogin(login), login.username, password);
      return 'The password is changed. Every token made before is revoked: give apps the new password or new tokens. This window stays signed in.';
    });
    if (changed) fields.clear();
  }
  return (
    <section className="panel" id="change-login" aria-labelledby="change-login-title">
      <h2 id="change-login-title">Change the password</h2>
      <form className="form-row" onSubmit={(event) => void change(event)}>
        <label>
          User
          <input
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            autoComplete="username"
          />
        </label>
        <label className="grow">
          Current password
          <input
            type={shown ? 'text' : 'password'}
            value={current}
            onChange={(event) => fields.setCurrent(event.target.value)}
            autoComplete="current-password"
          />
        </label>
        <label className="grow">
          New password (8 characters or more)
          <input
            type={shown ? 'text' : 'password'}
            value={password}
            onChange={(event) => fields.setPassword(event.target.value)}
            autoComplete="new-password"
          />
        </label>
        <label className="grow">
          Repeat the new password
          <input
            type={shown ? 'text' : 'password'}
            value={repeated}
            aria-invalid={mismatch}
            onChange={(event) => fields.setRepeated(event.target.value)}
            autoComplete="new-password"
          />
          {mismatch && <span className="field-error">The two passwords differ.</span>}
        </label>
        <button type="button" aria-pressed={shown} onClick={() => setShown(!shown)}>
          Show
        </button>
        <button type="submit" className="primary" disabled={busy || !ready}>
          Change password
        </button>
      </form>
      <FormResult result={result} />
    </section>
  );
}
