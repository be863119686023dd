import { type FormEvent, useState } from 'react';
import { useApp } from '../appContext.js';
import { FormResult } from '../components/StatusViews.js';
import { useAction } from '../useAction.js';
import type { Contact, Group } from './deskTypes.js';
import { useNumberExample } from './useDefaultCountry.js';

/** Add or edit one contact: name, number as typed (the server reads it with the default country), notes, groups. */
export function ContactForm(props: {
  contact?: Contact;
  /** A new contact's number, when it is known already (a conversation's party). */
  phoneNumber?: string;
  groups: Group[];
  onSaved: () => void;
  onClose: () => void;
}) {
  const { api } = useApp();
  const [name, setName] = useState(props.contact?.name ?? '');
  const [phoneNumber, setPhoneNumber] = useState(props.contact?.phoneNumber ?? props.phoneNumber ?? '');
  const [notes, setNotes] = useState(props.contact?.notes ?? '');
  const [groupIds, setGroupIds] = useState<string[]>(props.contact?.groupIds ?? []);
  const { busy, result, run } = useAction();
  const numberExample = useNumberExample();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = { name, phoneNumber, notes, groupIds };
    const saved = await run(async () => {
      if (props.contact) await api.replaceContact(props.contact.id, input);
      else await api.createContact(input);
      return undefined;
    });
    if (saved) props.onSaved();
  }

  return (
    <form
      className="compose"
      aria-label={props.contact ? 'Edit contact' : 'New contact'}
      onSubmit={(e) => void submit(e)}
    >
      <div className="form-row">
        <label>
          Name
          <input required value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <label>
          Phone number
          <input
            required
            value={phoneNumber}
            placeholder={numberExample}
            onChange={(event) => setPhoneNumber(event.target.value)}
          />
        </label>
        <label>
          Notes
          <input value={notes} onChange={(event) => setNotes(event.target.value)} />
        </label>
      </div>
      {props.groups.length > 0 && (
        <fieldset className="form-row">
          <legend>Groups</legend>
          {props.groups.map((group) => (
            <label key={group.id} className="checkbox">
              <input
                type="checkbox"
                checked={groupIds.includes(group.id)}
                onChange={(event) =>
                  setGroupIds(
                    event.target.checked ? [...groupIds, group.id] : groupIds.filter((id) => id !== group.id),
                  )
                }
              />
              {group.name}
            </label>
          ))}
        </fieldset>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Save contact
        </button>
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
        <FormResult result={result} />
      </div>
    </form>
  );
}
