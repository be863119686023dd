/**
 * Who the simulated modem says it is (ATI, +CGMI, +CGMM, +CGMR, +CGSN, +CIMI, +CCID, +CNUM,
 * +CSCA, +COPS). The defaults are harmless test values: the IMSI uses the ITU test network
 * MCC/MNC 001/01 and the phone numbers are in Ofcom's drama range (+44 7700 900xxx), so a
 * simulated message can never reach a real subscriber.
 */
export interface ModemIdentity {
  manufacturer: string;
  model: string;
  revision: string;
  imei: string;
  imsi: string;
  iccid: string;
  ownNumber: string;
  operator: string;
  smsc: string;
}

export const defaultModemIdentity: Readonly<ModemIdentity> = {
  manufacturer: 'Desktop SMS Gateway',
  model: 'Simulated Modem',
  revision: 'SIM-1.0.0',
  imei: '490154203237518',
  imsi: '001010123456789',
  iccid: '8900101234567890123',
  ownNumber: '+447700900001',
  operator: 'Test Network',
  smsc: '+447700900000',
};

export function resolveIdentity(overrides: Partial<ModemIdentity> = {}): ModemIdentity {
  return { ...defaultModemIdentity, ...overrides };
}

/** TS 24.008 §10.5.4.7 type of number: 145 international ("+" form), 129 unknown/national. */
export function typeOfAddress(number: string): number {
  return number.startsWith('+') ? 145 : 129;
}

/** The operator's numeric code (MCC + MNC) as +COPS shows it: the IMSI's first five digits. */
export function operatorCode(identity: ModemIdentity): string {
  return identity.imsi.slice(0, 5);
}
