import {
  RadioTechnologies,
  type RadioTechnology,
  type RegistrationName,
} from '../../contract/domain/device.js';

/**
 * What the network says about a modem, from the three registration reports of TS 27.007:
 * +CREG (circuit switched, §7.2), +CGREG (GPRS on GERAN/UTRAN, §10.1.20) and +CEREG (EPS on
 * E-UTRAN, §10.1.22). An LTE-only attach shows only in +CEREG, so a modem counts as
 * registered when any of the three says so. Pure: the UI and tests use it as is.
 */

export type RegistrationDomain = '+CREG' | '+CGREG' | '+CEREG';
export const RegistrationDomains: readonly RegistrationDomain[] = ['+CREG', '+CGREG', '+CEREG'];

/** The last <stat> each domain reported (absent: the modem does not have or did not say it). */
export type RegistrationStats = Partial<Record<RegistrationDomain, number>>;

/** TS 27.007 §7.2 <stat>: 6 and 7 are "registered for SMS only" (E-UTRAN), home and roaming. */
export function registrationName(stat: number): RegistrationName {
  switch (stat) {
    case 0:
      return 'not-registered';
    case 1:
    case 6:
      return 'home';
    case 2:
      return 'searching';
    case 3:
      return 'denied';
    case 5:
    case 7:
      return 'roaming';
    default:
      return 'unknown';
  }
}

/** Best first: a registration in any domain wins over searching, which wins over a refusal. */
const precedence: readonly RegistrationName[] = [
  'home',
  'roaming',
  'searching',
  'denied',
  'not-registered',
  'unknown',
];

/**
 * The registration to show and act on: the best any domain reports. `registered` is undefined
 * when no domain answered at all or the answer is "unknown" (such a modem is not held back).
 */
export function combinedRegistration(stats: RegistrationStats): {
  registration?: RegistrationName;
  registered?: boolean;
} {
  const names = RegistrationDomains.flatMap((domain) => {
    const stat = stats[domain];
    return stat === undefined ? [] : [registrationName(stat)];
  });
  if (names.length === 0) return {};
  const registration = precedence.find((name) => names.includes(name)) ?? 'unknown';
  // <stat> 4 "unknown" (or a value we do not know) says nothing either way: do not hold back.
  if (registration === 'unknown') return { registration };
  return { registration, registered: registration === 'home' || registration === 'roaming' };
}

/** TS 27.007 §7.3 / §7.2 <AcT> → technology; undefined for values we do not know. */
export function technologyOfAct(act: number): RadioTechnology | undefined {
  // 0 GSM, 1 GSM Compact, 3 GSM w/EGPRS, 8 EC-GSM-IoT
  if (act === 0 || act === 1 || act === 3 || act === 8) return '2G';
  // 2 UTRAN, 4 HSDPA, 5 HSUPA, 6 HSDPA+HSUPA
  if (act === 2 || act === 4 || act === 5 || act === 6) return '3G';
  // 7 E-UTRAN, 9 E-UTRAN NB-S1, 10 E-UTRA connected to a 5G core
  if (act === 7 || act === 9 || act === 10) return '4G';
  // 11 NR connected to a 5G core, 12 NG-RAN, 13 E-UTRA-NR dual connectivity
  if (act === 11 || act === 12 || act === 13) return '5G';
  return undefined;
}

/**
 * TS 27.007 §5.9 AT+WS46 <n>: the radio access networks a modem can use. Only the values up
 * to 31 are mapped; anything else stays unknown rather than guessed.
 */
const ws46Technologies: Readonly<Record<number, readonly RadioTechnology[]>> = {
  12: ['2G'],
  22: ['3G'],
  // "3GPP systems": GERAN and UTRAN before LTE existed, with E-UTRAN since, and pre-LTE modems
  // still offer it. It counts for 2G and 3G only (as in ModemManager): LTE modems also offer 28–31.
  // One that offers none of them (Franklin UML290: (12,22,25)) reads as 2G/3G.
  25: ['2G', '3G'],
  28: ['4G'],
  29: ['2G', '3G'],
  30: ['2G', '4G'],
  31: ['3G', '4G'],
};

/** Every technology any offered <n> names, in 2G…5G order; undefined if one value is unknown. */
export function technologiesOfWs46(values: readonly number[]): RadioTechnology[] | undefined {
  // 25 alone is "3GPP systems" with nothing beside it to say which: TS 27.007 §5.9 has meant
  // GERAN, UTRAN and E-UTRAN by it since Release 8, and LTE modules answer just that (SIMCom
  // SIM7600: +WS46: 25). Only beside 12 and 22 is it the pre-LTE 2G and 3G.
  if (values.length === 1 && values[0] === 25) return ['2G', '3G', '4G'];
  const found = new Set<RadioTechnology>();
  for (const value of values) {
    const technologies = ws46Technologies[value];
    if (!technologies) return undefined;
    for (const technology of technologies) found.add(technology);
  }
  if (found.size === 0) return undefined;
  return RadioTechnologies.filter((technology) => found.has(technology));
}

/**
 * Words for a modem that is not registered. A modem that can only use 2G (or 2G and 3G) gets
 * the likely reason: many operators have switched those networks off, and such a modem will
 * never register again there, whatever the gateway does.
 */
export function notRegisteredExplanation(
  registration: RegistrationName | undefined,
  supported: readonly RadioTechnology[] | undefined,
): string {
  const state =
    registration === 'denied'
      ? 'The network refuses this SIM (registration denied)'
      : registration === 'searching'
        ? 'The modem is searching for a network'
        : 'The modem is not registered to a network';
  const legacyOnly = supported !== undefined && !supported.includes('4G') && !supported.includes('5G');
  if (legacyOnly && registration !== 'denied') {
    const spoken = supported.join(' and ');
    return (
      `${state}. This modem only speaks ${spoken}; where the operator has switched ${spoken} off it can never ` +
      'register, and no message can be sent or received. Use a 4G (LTE) modem.'
    );
  }
  return `${state}: messages wait until it is registered.`;
}
