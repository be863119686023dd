import { normalisePhoneNumber } from '../../contract/domain/phoneNumbers.js';

/** §5.2.5 addr_ton 1: an international number, written without its "+". */
export const TonInternational = 1;

/**
 * A destination_addr as E.164: an international one (TON 1) gets its "+"; any other is read as
 * people type numbers, with the default country. Undefined when it is no phone number.
 */
export function phoneNumberOfAddress(
  address: string,
  ton: number,
  defaultCountry: string | undefined,
): string | undefined {
  const digits = address.trim();
  const typed = ton === TonInternational && /^\d+$/.test(digits) ? `+${digits}` : digits;
  const number = normalisePhoneNumber(typed, defaultCountry);
  return number.ok ? number.e164 : undefined;
}

/** A number as a source_addr with its TON: "+4477…" → international "4477…". */
export function addressOfPhoneNumber(phoneNumber: string): { address: string; ton: number } {
  return phoneNumber.startsWith('+')
    ? { address: phoneNumber.slice(1), ton: TonInternational }
    : { address: phoneNumber, ton: 0 };
}
