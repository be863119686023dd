import type { PortRole } from '../transport/portLayouts.js';
import type { UssdTextForm } from './ussdCodec.js';

/**
 * What differs between modem families, chosen from the +CGMI / +CGMM answers. The AT session
 * already copes with the framing-level oddities (Huawei's "COMMAND NOT SUPPORT" final result,
 * echo, doubled CRs); these profiles hold what the driver has to do differently.
 */
export interface QuirkProfile {
  /** Family name, for logs and the device details. */
  family: string;
  /**
   * Unsolicited codes that carry nothing the driver needs (status chatter). Logged at DEBUG
   * instead of being reported as unexpected.
   */
  noise: readonly string[];
  /** Commands sent after the standard init to quieten the modem; failures are ignored. */
  extraInit: readonly string[];
  /** The modem answers AT+CPIN? without a final OK: complete on the +CPIN line. */
  cpinWithoutOk: boolean;
  /**
   * How new messages are noticed: 'indications' negotiates +CNMI from AT+CNMI=?; 'polling'
   * lists the storage (AT+CMGL=4) every `pollIntervalMs` instead.
   */
  newMessages: 'indications' | 'polling';
  /** Preferred +CNMI <mode> values, best first (TS 27.005 §3.4.1). */
  cnmiModes: readonly number[];
  /**
   * Multi-port modems send unsolicited codes to one interface only; this routes them to the
   * port we use (its role from the USB layout, undefined when unknown). Absent: nothing to do.
   */
  urcRouting?: (role: PortRole | undefined) => UrcRouting;
  /** How USSD strings of the GSM 7-bit alphabet are written, both ways (see `ussdCodec.ts`). */
  ussdTextForm: UssdTextForm;
  /** Rejects an incoming call: V.250 `ATH`, or TS 27.007 §6.5 `AT+CHUP` where ATH leaves voice calls ringing. */
  hangUp: 'ATH' | 'AT+CHUP';
}

/** A vendor command that sends unsolicited codes to our port, and how to see it is set already. */
export interface UrcRouting {
  command: string;
  /** Asked first; when its answer matches `already`, the command is not sent (it may write flash). */
  query?: string;
  already?: RegExp;
}

/** Standard TS 27.005 behaviour, also the fallback for unknown modems. */
export const genericProfile: QuirkProfile = {
  family: 'generic',
  noise: [],
  extraInit: [],
  cpinWithoutOk: false,
  newMessages: 'indications',
  // Mode 2 buffers indications while the link is busy (e.g. during AT+CMGS) and flushes them
  // afterwards; mode 1 discards them then; mode 3 sends them inline.
  cnmiModes: [2, 1, 3],
  ussdTextForm: 'text',
  hangUp: 'ATH',
};

const huawei: QuirkProfile = {
  ...genericProfile,
  family: 'huawei',
  // E1752/E173/E3372: periodic ^RSSI (signal), ^MODE (RAT), ^BOOT, ^SRVST, ^SIMST chatter.
  noise: ['^RSSI', '^MODE', '^BOOT', '^SRVST', '^SIMST', '^DSFLOWRPT', '^HCSQ', '^RSSILVL'],
  // AT^CURC=0 turns the periodic Huawei reports off (Huawei AT command interface spec, ^CURC).
  extraInit: ['AT^CURC=0'],
  // E1550/E173/E3131 answer +CUSD with the packed septets in hex and want requests that way
  // (as asterisk-chan-dongle and gammu's Huawei code send them); ATH does not end a voice call
  // on them, AT+CHUP does.
  ussdTextForm: 'packed-hex',
  hangUp: 'AT+CHUP',
  // Huawei AT command interface specification, ^PORTSEL: 0 sends unsolicited codes (+CMTI,
  // RING…) to the modem port, 1 to the PC UI port. Sticks such as the E173 default to 0, so a
  // gateway on the PC UI port never hears a +CMTI (asterisk-chan-dongle users set it by hand).
  urcRouting: (role) => ({ command: `AT^PORTSEL=${role === 'ppp' ? 0 : 1}` }),
};

const zte: QuirkProfile = {
  ...genericProfile,
  family: 'zte',
  // K3565-Z/MF626: +ZDONR (operator) and +ZPASR (RAT) arrive at any time, even between the
  // PDU and the +CMGS result. (Its AT+CFUN? answers in the test form, which parseCfun reads as
  // "not said": its radio is left as it is.)
  noise: ['+ZDONR', '+ZPASR', '+ZUSIMR', '+ZEND', '+ZSTR'],
  // ZTE sticks end voice calls with AT+CHUP (their ATH only drops data connections).
  hangUp: 'AT+CHUP',
};

const wavecom: QuirkProfile = {
  ...genericProfile,
  family: 'wavecom',
  // MULTIBAND 900E 1800: AT+CPIN? answers "+CPIN: READY" and never sends OK; +WIND chatter.
  noise: ['+WIND'],
  cpinWithoutOk: true,
};

const simcom: QuirkProfile = {
  ...genericProfile,
  family: 'simcom',
  // SIM800/SIM7600 and Quectel EC2x/BG96 print RDY, +CFUN: 1, +CPIN: READY, SMS DONE and
  // PB DONE while booting, and +QIND / +CIEV / +PACSP status later.
  noise: ['RDY', 'SMS DONE', 'PB DONE', 'Call Ready', '+CFUN', '+QIND', '+CIEV', '+PACSP', '+STIN', '+CPIN'],
  // Both document mode 2 ("buffer in TA when the link is reserved") as the one to use.
  cnmiModes: [2, 1],
};

/** Quectel's "urcport" names of its USB interfaces (EC2x AT commands manual, AT+QURCCFG). */
function quectelUrcPort(role: PortRole | undefined): string {
  if (role === 'at-primary') return 'usbat';
  if (role === 'at-secondary' || role === 'ppp') return 'usbmodem';
  // Not knowing our interface, every port gets them rather than the wrong one.
  return 'all';
}

const quectel: QuirkProfile = {
  ...simcom,
  family: 'quectel',
  // EC2x/EG9x send unsolicited codes to one port ("usbat", "usbmodem", "uart1" or "all"); the
  // setting is kept in NVRAM, so it is read first and written only when it differs.
  urcRouting: (role) => {
    const port = quectelUrcPort(role);
    return {
      command: `AT+QURCCFG="urcport","${port}"`,
      query: 'AT+QURCCFG="urcport"',
      already: new RegExp(`\\+QURCCFG:\\s*"urcport","${port}"`, 'i'),
    };
  },
};

const sierra: QuirkProfile = {
  ...genericProfile,
  // 312U (gammu tests/at-creg): roaming as +CREG stat 5 with an extra AcT field, which the
  // registration parser handles; its +CGREG/+CEREG codes feed the registration like any modem's.
  family: 'sierra',
};

const androidPhone: QuirkProfile = {
  ...genericProfile,
  family: 'android-phone',
  // Phones exposing an AT port (Samsung/Motorola modem interface) accept +CMGS and +CMGL but
  // have no +CNMI routing to that port (the phone's own SMS app gets the indications), so the
  // storage is polled.
  newMessages: 'polling',
};

interface ProfileRule {
  profile: QuirkProfile;
  /** Matched against "<manufacturer> <model>", case-insensitive. */
  pattern: RegExp;
}

const rules: readonly ProfileRule[] = [
  { profile: huawei, pattern: /huawei/i },
  { profile: zte, pattern: /\bzte\b|zte corporation/i },
  { profile: wavecom, pattern: /wavecom/i },
  { profile: quectel, pattern: /quectel/i },
  { profile: simcom, pattern: /simcom|sim_?com/i },
  { profile: sierra, pattern: /sierra/i },
  { profile: androidPhone, pattern: /samsung|motorola|google|android|xiaomi|oneplus/i },
];

export function quirksFor(manufacturer = '', model = ''): QuirkProfile {
  const identity = `${manufacturer} ${model}`;
  return rules.find((rule) => rule.pattern.test(identity))?.profile ?? genericProfile;
}
