import { normalisePhoneNumber } from '../../contract/domain/phoneNumbers.js';

export type MailRecipient = { ok: true; phoneNumber: string } | { ok: false; reason: string };

/**
 * The phone number of a recipient address `<number>@<any domain>`: the local part as people
 * type it (`+44 7700 900123` cannot be a local part, but `+447700900123`, `07700900123` and
 * `0044-7700-900123` can), read with the default country when it has no `+` or `00`.
 */
export function recipientOfAddress(address: string, defaultCountry: string | undefined): MailRecipient {
  const at = address.lastIndexOf('@');
  const localPart = (at < 0 ? address : address.slice(0, at)).replace(/^"(.*)"$/, '$1');
  if (!/^[+\d][\d\s().\-/]*$/.test(localPart)) {
    return { ok: false, reason: `${address}: the part before @ must be a phone number` };
  }
  const number = normalisePhoneNumber(localPart.replace(/[.\-/]/g, ' '), defaultCountry);
  return number.ok
    ? { ok: true, phoneNumber: number.e164 }
    : { ok: false, reason: `${address}: ${number.message}` };
}
