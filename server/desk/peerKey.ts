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
