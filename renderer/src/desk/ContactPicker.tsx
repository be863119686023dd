import { useState } from 'react';
import { useApp } from '../appContext.js';
import { useResource } from '../useResource.js';
import type { Contact } from './deskTypes.js';

/** Pick contacts by name or number for a bulk send; the chosen ones stay listed with their names. */
export function ContactPicker(props: { chosen: Contact[]; onChange: (chosen: Contact[]) => void }) {
  const { api } = useApp();
  const [search, setSearch] = useState('');
  const matches = useResource(
    () => (search.trim() === '' ? Promise.resolve(undefined) : api.listContacts({ search }, 10, 0)),
    [api, search],
  );
  const chosenIds = new Set(props.chosen.map((contact) => contact.id));
  return (
    <fieldset className="field">
      <legend>Contacts</legend>
      <input
        type="search"
        aria-label="Find contacts"
        placeholder="Name or number"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <ul className="plain-list">
        {matches.data?.items
          .filter((contact) => !chosenIds.has(contact.id))
          .map((contact) => (
            <li key={contact.id}>
              <button
                type="button"
                className="link-button"
                onClick={() => props.onChange([...props.chosen, contact])}
              >
                Add {contact.name} ({contact.phoneNumber})
              </button>
            </li>
          ))}
        {props.chosen.map((contact) => (
          <li key={contact.id}>
            {contact.name} ({contact.phoneNumber}){' '}
            <button
              type="button"
              className="link-button"
              onClick={() => props.onChange(props.chosen.filter((entry) => entry.id !== contact.id))}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
