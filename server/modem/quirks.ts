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
};

const huawei: QuirkProfile = {
  ...genericProfile,
  family: 'huawei',
  // E1752/E173/E3372: periodic ^RSSI (signal), ^MODE (RAT), ^BOOT, ^SRVST, ^SIMST chatter.
  noise: ['^RSSI', '^MODE', '^BOOT', '^SRVST', '^SIMST', '^DSFLOWRPT', '^HCSQ', '^RSSILVL'],
  // AT^CURC=0 turns the periodic Huawei reports off (Huawei AT command interface spec, ^CURC).
  extraInit: ['AT^CURC=0'],
};

const zte: QuirkProfile = {
  ...genericProfile,
  family: 'zte',
  // K3565-Z/MF626: +ZDONR (operator) and +ZPASR (RAT) arrive at any time, even between the
  // PDU and the +CMGS result. (Its AT+CFUN? answers in test format; the driver never asks it.)
  noise: ['+ZDONR', '+ZPASR', '+ZUSIMR', '+ZEND', '+ZSTR'],
};

const wavecom: QuirkProfile = {
  ...genericProfile,
  family: 'wavecom',
  // MULTIBAND 900E 1800: AT+CPIN? answers "+CPIN: READY" and never sends OK; +WIND chatter.
  noise: ['+WIND'],
  cpinWithoutOk: true,
};

const simcomQuectel: QuirkProfile = {
  ...genericProfile,
  family: 'simcom-quectel',
  // SIM800/SIM7600 and Quectel EC2x/BG96 print RDY, +CFUN: 1, +CPIN: READY, SMS DONE and
  // PB DONE while booting, and +QIND / +CIEV / +PACSP status later.
  noise: ['RDY', 'SMS DONE', 'PB DONE', 'Call Ready', '+CFUN', '+QIND', '+CIEV', '+PACSP', '+STIN', '+CPIN'],
  // Both document mode 2 ("buffer in TA when the link is reserved") as the one to use.
  cnmiModes: [2, 1],
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
  { profile: simcomQuectel, pattern: /simcom|sim_?com|quectel/i },
  { profile: sierra, pattern: /sierra/i },
  { profile: androidPhone, pattern: /samsung|motorola|google|android|xiaomi|oneplus/i },
];

export function quirksFor(manufacturer = '', model = ''): QuirkProfile {
  const identity = `${manufacturer} ${model}`;
  return rules.find((rule) => rule.pattern.test(identity))?.profile ?? genericProfile;
}
