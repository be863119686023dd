import { normalisePhoneNumber } from './phoneNumbers.js';

/**
 * The key a party is known by on the desk (conversations, opt-outs, loop protection): the same
 * person written "+44 7700 900123" or "+447700900123" is one key. Numbers lose their spacing
 * and punctuation; an alphanumeric sender ("VODAFONE") stays as written, uppercased, since it
 * can be neither dialled nor normalised.
 */
export type PeerKey = (raw: string) => string;

const formatting = /[\s\-().]/g;

export const formattedNumberKey: PeerKey = (raw) => {
  const trimmed = raw.trim();
  const stripped = trimmed.replace(formatting, '');
  if (/^\+?\d+$/.test(stripped)) return stripped.startsWith('00') ? `+${stripped.slice(2)}` : stripped;
  return trimmed.toUpperCase();
};

/**
 * A number in E.164 read with the `desk.default_country` in force ("07700 900123" in GB is
 * "+447700900123"), so a customer who writes from their phone and one typed in national form
 * by staff are one party; what cannot be read that way keeps its `formattedNumberKey`.
 */
export function e164PeerKey(defaultCountry: () => string | null): PeerKey {
  return (raw) => {
    const result = normalisePhoneNumber(raw, defaultCountry() ?? undefined);
    return result.ok ? result.e164 : formattedNumberKey(raw);
  };
}
