import type { ReactNode } from 'react';
import type { Scope } from '../../../server/contract/domain/scopes.js';
import { usePerson } from '../session/person.js';

/**
 * A control that changes something, shown only to a person whose role may use it: the gateway
 * would refuse anyone else, so they are not offered it (RoleLimit says why).
 */
export function Writes(props: { scope: Scope; children: ReactNode }) {
  return usePerson().may(props.scope) ? props.children : null;
}

/**
 * Said in place of the controls `Writes` leaves out, to a person whose role may not use them:
 * what their role lets them do here, in words, never a scope's name. Nothing until the gateway
 * has said who this is.
 */
export function RoleLimit(props: { scope: Scope; what: string }) {
  const { me, may } = usePerson();
  if (!me || may(props.scope)) return null;
  return (
    <p className="hint role-limit">
      Your role ({me.role}) lets you see {props.what}, not change them. An owner can change them, or your role
      on the People screen.
    </p>
  );
}
