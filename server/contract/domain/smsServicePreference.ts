/**
 * TS 27.007 §10.1.20 AT+CGSMS <service>: which domain a modem sends SMS over. On LTE, SMS goes
 * over SGs or IMS; some modems default to circuit switched only and then fail every send on a
 * network without 2G/3G. Pure: the UI offers the same names.
 */
export const SmsServicePreferences = ['packet', 'circuit', 'packet-preferred', 'circuit-preferred'] as const;
export type SmsServicePreference = (typeof SmsServicePreferences)[number];

/** <service> 0 packet domain, 1 circuit switched, 2 packet preferred, 3 circuit switched preferred. */
export function smsServiceOfCode(code: number): SmsServicePreference | undefined {
  return SmsServicePreferences[code];
}

export function codeOfSmsService(preference: SmsServicePreference): number {
  return SmsServicePreferences.indexOf(preference);
}
