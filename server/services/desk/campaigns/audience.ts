import type { GroupMember } from '../../../contract/domain/contacts.js';
import { missingText, recipientFields, renderPlaceholders } from '../../../contract/domain/placeholders.js';
import { planText } from '../../../contract/pdu/index.js';
import { MaxTextLength } from '../../../contract/schemas/messageSchemas.js';
import { chunksInTurns, nextTurn, rowPacer, rowsPerTurn } from '../bulkPacing.js';
import type { ContactRepository } from '../contacts/contactRepository.js';
import type { NumberReader } from '../numberReader.js';

/**
 * Who a bulk send goes to, from any mix of typed numbers, contacts, groups and rows of an
 * uploaded CSV, and the text each one gets. Pure planning: nothing is stored here.
 */
export interface AudienceSpec {
  /** Numbers as typed (read with the default country). */
  phoneNumbers?: readonly string[];
  contactIds?: readonly string[];
  groupIds?: readonly string[];
  /** Rows of a CSV: a number and the row's fields for the placeholders (`{order}`). */
  rows?: readonly { phoneNumber: string; fields?: Readonly<Record<string, string>> }[];
}

/**
 * Removes recipients before a send (desk-b's opt-out list plugs in here): given the E.164
 * numbers, answers those that must not get the message. `name` labels the count in the preview.
 */
export interface RecipientFilter {
  name: string;
  exclude(phoneNumbers: readonly string[]): ReadonlySet<string>;
}

export interface PlannedMessage {
  phoneNumber: string;
  /** The contact's name, when the number is in the address book. */
  name?: string;
  text: string;
  parts: number;
}

export interface RecipientProblem {
  /** Where the recipient came from: `recipients.rows[3]`, `recipients.phoneNumbers[0]`… */
  field: string;
  message: string;
}

export interface AudiencePlan {
  messages: PlannedMessage[];
  /** The same number named again (by a row, a contact, a group or typed) counts once. */
  duplicates: number;
  /** Recipients each filter removed, by filter name (e.g. `{ "opt-out": 3 }`). */
  removed: Record<string, number>;
  problems: RecipientProblem[];
  totalParts: number;
}

interface Candidate {
  field: string;
  phoneNumber: string;
  name?: string;
  fields: Record<string, string>;
}

export interface AudienceDependencies {
  contacts: ContactRepository;
  readNumber: NumberReader;
  filters: readonly RecipientFilter[];
}

/**
 * Resolves, de-duplicates by number (the first mention wins: rows first, as they carry the most
 * fields, then contacts, groups, typed numbers), filters and renders. Each recipient's fields
 * are its row's, plus `name` and `phone` from the address book when the row does not give them.
 * Works `rowsPerTurn` recipients at a time, so a 50,000-row preview does not hold the gateway.
 */
export async function planAudience(
  text: string,
  spec: AudienceSpec,
  deps: AudienceDependencies,
): Promise<AudiencePlan> {
  const problems: RecipientProblem[] = [];
  const candidates = await resolve(spec, deps, problems);
  const seen = new Set<string>();
  const distinct = candidates.filter((candidate) => {
    if (seen.has(candidate.phoneNumber)) return false;
    seen.add(candidate.phoneNumber);
    return true;
  });
  const removed: Record<string, number> = {};
  let kept = distinct;
  for (const filter of deps.filters) {
    const excluded = new Set<string>();
    for await (const chunk of chunksInTurns(kept)) {
      for (const number of filter.exclude(chunk.map((candidate) => candidate.phoneNumber)))
        excluded.add(number);
    }
    removed[filter.name] = kept.filter((candidate) => excluded.has(candidate.phoneNumber)).length;
    kept = kept.filter((candidate) => !excluded.has(candidate.phoneNumber));
  }
  const messages: PlannedMessage[] = [];
  const pace = rowPacer();
  for (const candidate of kept) {
    await pace();
    const rendered = renderPlaceholders(text, candidate.fields);
    if (!rendered.ok) {
      problems.push({
        field: candidate.field,
        message: `no value for ${missingText(rendered.missing)} (${candidate.phoneNumber})`,
      });
      continue;
    }
    if (rendered.text.length > MaxTextLength) {
      problems.push({
        field: candidate.field,
        message: `the text is ${rendered.text.length} characters, more than ${MaxTextLength} (${candidate.phoneNumber})`,
      });
      continue;
    }
    const parts = planText(rendered.text).parts;
    messages.push({
      phoneNumber: candidate.phoneNumber,
      ...(candidate.name ? { name: candidate.name } : {}),
      text: rendered.text,
      parts,
    });
  }
  return {
    messages,
    duplicates: candidates.length - distinct.length,
    removed,
    problems,
    totalParts: messages.reduce((sum, message) => sum + message.parts, 0),
  };
}

async function resolve(
  spec: AudienceSpec,
  deps: AudienceDependencies,
  problems: RecipientProblem[],
): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  const read = (typed: string, field: string): string | undefined => {
    try {
      return deps.readNumber(typed, field);
    } catch (error) {
      problems.push({
        field,
        message: error instanceof Error ? error.message.replace(`${field}: `, '') : String(error),
      });
      return undefined;
    }
  };
  /** Typed numbers read in chunks, each chunk's names looked up in one query. */
  const readAll = async <T>(
    items: readonly T[],
    field: string,
    typedOf: (item: T) => string,
    add: (item: T, index: number, phoneNumber: string, name: string | undefined) => void,
  ) => {
    let index = 0;
    for await (const chunk of chunksInTurns(items)) {
      const numbers = chunk.map((item, offset) => read(typedOf(item), `${field}[${index + offset}]`));
      const names = deps.contacts.namesOf(numbers.filter((number): number is string => number !== undefined));
      for (const [offset, item] of chunk.entries()) {
        const phoneNumber = numbers[offset];
        if (phoneNumber !== undefined) add(item, index + offset, phoneNumber, names[phoneNumber]);
      }
      index += chunk.length;
    }
  };

  await readAll(
    spec.rows ?? [],
    'recipients.rows',
    (row) => row.phoneNumber,
    (row, index, phoneNumber, known) => {
      const name = row.fields?.name?.trim() || known;
      candidates.push({
        field: `recipients.rows[${index}]`,
        phoneNumber,
        ...(name ? { name } : {}),
        fields: { ...recipientFields(phoneNumber, name), ...row.fields },
      });
    },
  );
  const pace = rowPacer();
  for (const [index, id] of (spec.contactIds ?? []).entries()) {
    await pace();
    try {
      const contact = deps.contacts.get(id);
      candidates.push(contactCandidate(`recipients.contactIds[${index}]`, contact));
    } catch {
      problems.push({ field: `recipients.contactIds[${index}]`, message: `contact ${id} does not exist` });
    }
  }
  for await (const contact of groupMembers(spec.groupIds ?? [], deps.contacts)) {
    candidates.push(contactCandidate('recipients.groupIds', contact));
  }
  await readAll(
    spec.phoneNumbers ?? [],
    'recipients.phoneNumbers',
    (typed) => typed,
    (_typed, index, phoneNumber, name) => {
      candidates.push({
        field: `recipients.phoneNumbers[${index}]`,
        phoneNumber,
        ...(name ? { name } : {}),
        fields: recipientFields(phoneNumber, name),
      });
    },
  );
  return candidates;
}

/** The groups' members, a page of `rowsPerTurn` per turn of the event loop. */
async function* groupMembers(
  groupIds: readonly string[],
  contacts: ContactRepository,
): AsyncGenerator<GroupMember> {
  let after: GroupMember | undefined;
  for (;;) {
    const page = contacts.membersPage(groupIds, after, rowsPerTurn);
    yield* page;
    after = page.at(-1);
    if (page.length < rowsPerTurn) return;
    await nextTurn();
  }
}

function contactCandidate(field: string, contact: GroupMember): Candidate {
  return {
    field,
    phoneNumber: contact.phoneNumber,
    name: contact.name,
    fields: recipientFields(contact.phoneNumber, contact.name),
  };
}
