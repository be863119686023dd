/**
 * The settings a host changes with AT commands and ATZ / AT&F put back.
 *
 * The simulator's stored profile already routes SMS indications (AT+CNMI=2,1,0,<ds>,0), so a
 * host that never sends AT+CNMI still hears about new messages; a real modem's factory profile
 * often does not, which is why the gateway sets AT+CNMI itself.
 */
import type { ErrorVerbosity } from './resultCodes.js';

/** TS 27.005 §3.4.1 AT+CNMI=<mode>,<mt>,<bm>,<ds>,<bfr>. */
export interface MessageIndications {
  mode: number;
  mt: number;
  bm: number;
  ds: number;
  bfr: number;
}

export type StatusReportRouting = 'cds' | 'cdsi';

export interface ModemProfile {
  echo: boolean;
  errorVerbosity: ErrorVerbosity;
  /** AT+CMGF: true = PDU mode (0), false = text mode (1). */
  pduMode: boolean;
  indications: MessageIndications;
  /** AT+CREG=<n> and AT+CGREG=<n>: 0 silent, 1 unsolicited <stat>, 2 with location. */
  registrationReports: number;
  packetRegistrationReports: number;
  /** AT+CEREG=<n>, the same for E-UTRAN. */
  epsRegistrationReports: number;
  /** AT+CSMS=<service>: 1 means +CMT and +CDS must be acknowledged with AT+CNMA. */
  messageService: number;
  /** AT+CLIP=<n>: 1 shows the caller's number after each RING. */
  callerId: number;
  /** AT+CSCS (TS 27.007 §5.5): the character set of text fields, e.g. "IRA", "GSM", "UCS2". */
  characterSet: string;
}

export interface ProfileDefaults {
  echo: boolean;
  statusReports: StatusReportRouting;
  characterSet: string;
}

export function storedProfile(defaults: ProfileDefaults): ModemProfile {
  return {
    echo: defaults.echo,
    errorVerbosity: 0,
    pduMode: true,
    // <ds> 1 routes status reports directly (+CDS), 2 stores them and indicates (+CDSI).
    indications: { mode: 2, mt: 1, bm: 0, ds: defaults.statusReports === 'cds' ? 1 : 2, bfr: 0 },
    registrationReports: 0,
    packetRegistrationReports: 0,
    epsRegistrationReports: 0,
    messageService: 0,
    callerId: 0,
    characterSet: defaults.characterSet,
  };
}

/** AT&F: factory settings, which always echo (V.250 §6.2.4 default E1). */
export function factoryProfile(defaults: ProfileDefaults): ModemProfile {
  return storedProfile({ ...defaults, echo: true });
}
