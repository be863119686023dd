/**
 * Placeholders in a text: `{name}`, `{order}`. A name is letters, digits, `_`, `-` or spaces
 * (CSV headers such as `{first name}`), matched without regard to case. Pure: the UI renders
 * previews with it.
 */
const placeholderPattern = /\{([\p{L}\p{N}_\- ]+)\}/gu;

/** The distinct placeholder names of `text`, lowercased, in order of first use. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(placeholderPattern)].map((match) => fieldKey(match[1] ?? '')))];
}

export type Rendered = { ok: true; text: string } | { ok: false; missing: string[] };

/**
 * `text` with each `{field}` replaced by its value in `fields` (keys compared without case and
 * surrounding spaces). A placeholder with no value, or an empty one, is reported instead of
 * sending "Hello , your order  is ready".
 */
export function renderPlaceholders(text: string, fields: Readonly<Record<string, string>>): Rendered {
  const values = new Map(Object.entries(fields).map(([key, value]) => [fieldKey(key), value]));
  const missing = placeholdersOf(text).filter((name) => !values.get(name)?.trim());
  if (missing.length > 0) return { ok: false, missing };
  return {
    ok: true,
    text: text.replace(placeholderPattern, (_all, name: string) => values.get(fieldKey(name)) ?? ''),
  };
}

/**
 * The fields the address book gives every recipient: `{phone}`, and `{name}` when the number has
 * a contact. Compose, bulk sends and auto-replies all fill placeholders from these, so one text
 * reads the same whichever way it goes out.
 */
export function recipientFields(
  phoneNumber: string,
  contactName: string | undefined,
): Record<string, string> {
  return { ...(contactName ? { name: contactName } : {}), phone: phoneNumber };
}

/** "{name}, {order}": the missing placeholders as the text spells them. */
export function missingText(missing: readonly string[]): string {
  return missing.map((name) => `{${name}}`).join(', ');
}

function fieldKey(name: string): string {
  return name.trim().toLowerCase();
}
