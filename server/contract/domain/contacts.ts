/** A person in the address book. `phoneNumber` is E.164 and unique: the key imports merge on. */
export interface Contact {
  id: string;
  phoneNumber: string;
  name: string;
  notes: string;
  /** Ids of the groups the contact is in. */
  groupIds: string[];
  updatedAt: number;
}

/** What a bulk send needs of a group's member. */
export type GroupMember = Pick<Contact, 'name' | 'phoneNumber'>;

/** What a caller gives to create or replace a contact; the number must already be E.164. */
export interface ContactInput {
  phoneNumber: string;
  name: string;
  notes?: string;
  groupIds?: readonly string[];
}

export interface Group {
  id: string;
  name: string;
  /** Contacts in the group. */
  size: number;
}

export interface ContactQuery {
  /** Case-insensitive substring of the name, the number or the notes. */
  search?: string;
  groupId?: string;
  limit: number;
  offset: number;
}
