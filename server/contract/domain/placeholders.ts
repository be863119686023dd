/**
 * Placeholders in a text: `{name}`, `{order}`, and with a fallback for a value nobody has,
 * `{name|there}` ("Hello {name|there}" greets an unknown sender "Hello there"). A name is
 * letters, digits, `_`, `-` or spaces (CSV headers such as `{first name}`), matched without
 * regard to case. Pure: the UI renders previews with it.
 */
const placeholderPattern = /\{([\p{L}\p{N}_\- ]+)(?:\|([^{}|]*))?\}/gu;

/** The distinct placeholder names of `text`, lowercased, in order of first use. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(placeholderPattern)].map((match) => fieldKey(match[1] ?? '')))];
}

/** The distinct placeholder names of `text` written without a fallback: what can leave it unsendable. */
export function placeholdersWithoutFallback(text: string): string[] {
  const bare = [...text.matchAll(placeholderPattern)].filter((match) => match[2] === undefined);
  return [...new Set(bare.map((match) => fieldKey(match[1] ?? '')))];
}

export type Rendered = { ok: true; text: string } | { ok: false; missing: string[] };

/**
 * `text` with each `{field}` replaced by its value in `fields` (keys compared without case and
 * surrounding spaces), or by its fallback when it has one. A placeholder with no value, or an
 * empty one, and no fallback is reported instead of sending "Hello , your order  is ready".
 */
export function renderPlaceholders(text: string, fields: Readonly<Record<string, string>>): Rendered {
  const values = new Map(Object.entries(fields).map(([key, value]) => [fieldKey(key), value]));
  const filledValue = (name: string) => {
    const value = values.get(fieldKey(name));
    return value?.trim() ? value : undefined;
  };
  const missing = placeholdersWithoutFallback(text).filter((name) => filledValue(name) === undefined);
  if (missing.length > 0) return { ok: false, missing };
  return {
    ok: true,
    text: text.replace(
      placeholderPattern,
      (_all, name: string, fallback: string | undefined) => filledValue(name) ?? fallback ?? '',
    ),
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
