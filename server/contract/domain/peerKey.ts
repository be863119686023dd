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

/** Keys `e164PeerKey` remembers before it starts again: a bound, not a cache policy worth more. */
const rememberedKeys = 10_000;

/**
 * A number in E.164 read with the `desk.default_country` in force ("07700 900123" in GB is
 * "+447700900123"), so a customer who writes from their phone and one typed in national form
 * by staff are one party; what cannot be read that way keeps its `formattedNumberKey`.
 */
export function e164PeerKey(defaultCountry: () => string | null): PeerKey {
  // Every queued and received message is keyed, and libphonenumber's parse is a visible part of a
  // POST's CPU: the same few numbers recur, so the keys are remembered, per country.
  const remembered = new Map<string, string>();
  return (raw) => {
    const country = defaultCountry() ?? undefined;
    const memo = `${country ?? ''} ${raw}`;
    const known = remembered.get(memo);
    if (known !== undefined) return known;
    const result = normalisePhoneNumber(raw, country);
    const key = result.ok ? result.e164 : formattedNumberKey(raw);
    if (remembered.size >= rememberedKeys) remembered.clear();
    remembered.set(memo, key);
    return key;
  };
}
