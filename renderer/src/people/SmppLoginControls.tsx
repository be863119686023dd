import type { SmppLoginHolder } from '../api/types.js';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { usePerson } from '../session/person.js';
import { useAction } from '../useAction.js';
import { useResource } from '../useResource.js';

/**
 * A person's or an app's SMPP login (docs/email-and-smpp.md): SMPP 3.4 lets a bind carry 15
 * characters of system_id and 8 of password, so this login, not their own, is what Kannel and
 * other SMPP clients use. Making or resetting one shows its new password this once.
 */
export function SmppLoginControls(props: {
  holder: SmppLoginHolder;
  /** Whose it is, for the buttons' names and the result line. */
  name: string;
  systemId: string | undefined;
  onChanged: () => void;
}) {
  const { api } = useApp();
  const action = useAction();
  const { holder, name, systemId } = props;

  const issue = async () => {
    const done = await action.run(async () => {
      const issued = await api.issueSmppLogin(holder);
      return `SMPP login of ${name}: system_id ${issued.systemId}, password ${issued.password}. Note the password now: it is not shown again.`;
    });
    if (done) props.onChanged();
  };
  const remove = async () => {
    const done = await action.run(async () => {
      await api.removeSmppLogin(holder);
      return `${name} has no SMPP login now; sessions bound with it go on until they unbind.`;
    });
    if (done) props.onChanged();
  };

  return (
    <div className="smpp-login">
      {systemId === undefined ? (
        <span className="muted">No SMPP login</span>
      ) : (
        <span>
          system_id <code>{systemId}</code>
        </span>
      )}{' '}
      <button type="button" className="link-button" disabled={action.busy} onClick={() => void issue()}>
        {systemId === undefined ? `Make an SMPP login for ${name}` : `New SMPP password for ${name}`}
      </button>
      {systemId !== undefined && (
        <>
          {' '}
          <button type="button" className="link-button" disabled={action.busy} onClick={() => void remove()}>
            Remove the SMPP login of {name}
          </button>
        </>
      )}
      <FormResult result={action.result} />
    </div>
  );
}

/**
 * The signed-in person's own SMPP login (PUT /gateway/v1/me/smpp-login): in the sidebar for
 * everyone who may send, and under the SMPP server's settings.
 */
export function OwnSmppLogin() {
  const { api } = useApp();
  const { may } = usePerson();
  const me = useResource(() => api.me(), [api]);
  if (!me.data || me.data.role === 'app' || !may('messages:send')) return null;
  return (
    <details className="own-smpp-login">
      <summary>My SMPP login</summary>
      <p className="hint">
        SMPP 3.4 takes 15 characters of system_id and 8 of password: SMPP clients bind with this.
      </p>
      <SmppLoginControls
        holder={{ kind: 'me' }}
        name={me.data.name}
        systemId={me.data.smppSystemId}
        onChanged={me.reload}
      />
    </details>
  );
}
