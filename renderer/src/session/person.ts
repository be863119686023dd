import { createContext, useContext } from 'react';
import type { Scope } from '../../../server/contract/domain/scopes.js';
import type { MeView } from '../api/types.js';

/**
 * Who is signed in and what their role lets them do (GET /gateway/v1/me), so that the window
 * shows each person only what they may use. The gateway checks every request regardless.
 */
export interface Person {
  me: MeView | undefined;
  /** False until the gateway has said who this is. */
  may(scope: Scope): boolean;
}

export function personOf(me: MeView | undefined): Person {
  const scopes = new Set<string>(me?.scopes ?? []);
  return { me, may: (scope) => scopes.has(scope) };
}

export const PersonContext = createContext<Person>(personOf(undefined));

export function usePerson(): Person {
  return useContext(PersonContext);
}
