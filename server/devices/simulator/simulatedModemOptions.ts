import type { Clock } from '../../clock/clock.js';
import type { RadioTechnology } from '../../contract/domain/device.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { Transport } from '../transport/transport.js';
import type { ModemIdentity } from './modemIdentity.js';
import type { StatusReportRouting } from './modemProfile.js';
import type { RelayLinkOptions } from './relayLink.js';
import type { HangUpCommand, UssdForm } from './simulatedTelephony.js';

export interface SimulatedModemOptions {
  clock: Clock;
  logger: Logger;
  identity?: Partial<ModemIdentity>;
  /** The SIM starts locked (+CPIN: SIM PIN) until AT+CPIN="<pin>"; 3 wrong tries → SIM PUK. */
  simPin?: string;
  /** Delay before each reply, ms (default 0). */
  replyDelayMs?: number;
  /** Time the network takes to accept an AT+CMGS on an open relay link, ms (default 0). */
  sendDelayMs?: number;
  /**
   * The relay link to the SMSC (`relayLink.ts`): its set-up before a send that finds it closed,
   * how long `+CMMS` 1 or 2 holds it, and which `+CMMS` modes the modem offers.
   */
  relayLink?: RelayLinkOptions;
  /** Delay before the status report of a send that requested one, ms (default 1000). */
  statusReportDelayMs?: number;
  /** Direct +CDS or stored +CDSI (default 'cdsi'); AT+CNMI <ds> overrides it once set. */
  statusReportMode?: StatusReportRouting;
  /** Initial ATE state (default true, like real modems). */
  echo?: boolean;
  /** SIM message slots (default 30). */
  storageSize?: number;
  /**
   * Where status reports are stored: 'SM' with the messages (default), or a memory of their
   * own, 'SR', as Huawei, Quectel and SIMCom modems keep them (read with AT+CPMS="SR").
   */
  statusReportMemory?: 'SM' | 'SR';
  /** What the modem can use (AT+WS46). Default 2G and 3G, a classic USB stick. */
  radioTechnologies?: RadioTechnology[];
  /**
   * What it is attached with (default the newest it can use). '4G' registers in +CEREG only,
   * as an LTE attach without circuit-switched fallback does; +CREG and +CGREG then say 0.
   */
  attachedTechnology?: RadioTechnology;
  /**
   * Where the indications (+CMTI, +CDSI, +CMT, +CDS) go. Default: the command port. A second
   * port models a multi-port modem that routes them to another USB interface (Huawei's modem
   * port vs PCUI, Quectel's usbmodem vs usbat) until told otherwise.
   */
  indicationPort?: Transport;
  /**
   * Most entries kept in `commands` and `accepted` (default: all). A simulated modem that runs
   * for days under `npm start` should set one, or its history grows without end.
   */
  historyLimit?: number;
  /**
   * AT+CSCS at power-on (default "IRA"): a Quectel M35 comes up in "UCS2" (gammu
   * tests/at-ussd/Uissue358-Quectel_M35.dump). It offers "IRA", "GSM" and "UCS2".
   */
  characterSet?: 'IRA' | 'GSM' | 'UCS2';
  /**
   * The radio at power-on: 'on' (default), 'off' (`+CFUN: 4`, flight mode kept from the last
   * session, as SIMCom and Quectel modules keep it), or 'stuck-off' (off, and AT+CFUN=1 is
   * refused, as with a hardware radio-disable line held).
   */
  radio?: 'on' | 'off' | 'stuck-off';
  /** How USSD strings are written (default 'text'; Huawei 'packed-hex'; 'ucs2' answers in DCS 72). */
  ussdForm?: UssdForm;
  /** Between the OK of AT+CUSD and the network's +CUSD answer, ms (default 200). */
  ussdDelayMs?: number;
  /** The command that ends a voice call here (default 'ATH'; the other answers OK and does nothing). */
  hangUp?: HangUpCommand;
}

export const DEFAULT_STATUS_REPORT_DELAY_MS = 1000;
export const DEFAULT_STORAGE_SIZE = 30;

/** Refuses options no modem could have, before anything starts. */
export function checkSimulatedModemOptions(options: SimulatedModemOptions): void {
  const counts: [string, number | undefined, number][] = [
    ['replyDelayMs', options.replyDelayMs, 0],
    ['sendDelayMs', options.sendDelayMs, 0],
    ['statusReportDelayMs', options.statusReportDelayMs, 0],
    ['storageSize', options.storageSize, 1],
    ['historyLimit', options.historyLimit, 1],
    ['relayLink.setupMs', options.relayLink?.setupMs, 0],
    ['relayLink.holdMs', options.relayLink?.holdMs, 0],
  ];
  for (const [field, value, minimum] of counts) {
    if (value !== undefined && (!Number.isInteger(value) || value < minimum)) {
      throw new GatewayError(ErrorCode.ConfigInvalid, `${field} must be an integer of at least ${minimum}`, {
        field,
      });
    }
  }
  if (options.simPin !== undefined && !/^\d{4,8}$/.test(options.simPin)) {
    // 3GPP TS 51.011 (GSM 11.11): a CHV (PIN) is 4 to 8 digits.
    throw new GatewayError(ErrorCode.ConfigInvalid, 'simPin must be 4 to 8 digits', { field: 'simPin' });
  }
}

/** Keeps `history` to its newest `limit` entries (none: all of them). */
export function appendBounded<Entry>(history: Entry[], entry: Entry, limit: number | undefined): void {
  history.push(entry);
  if (limit !== undefined && history.length > limit) history.splice(0, history.length - limit);
}
