import type { SmsServicePreference } from './smsServicePreference.js';

/**
 * The modems of the pool as every layer and the UI see them: status, the device record of
 * GET /devices with our modem fields, delivery reports, and the modem's own events. Pure types.
 */
/** Where a modem (or phone, or HiLink stick) of the pool is in its life. */
export const ModemStatuses = [
  'starting',
  'ready',
  'sim-pin-required',
  'sim-pin-wrong',
  'recovering',
  /** Answers, SIM unlocked, but registered to no network: it neither sends nor gets messages. */
  'no-network',
  'offline',
  /**
   * A network address where nothing answered `AT` with `OK` in several connections: the gateway
   * stopped calling it until it is added again.
   */
  'not-a-modem',
] as const;
export type ModemStatus = (typeof ModemStatuses)[number];

/**
 * Why a device is offline or recovering, as a code the UI switches on (`statusDetail` says it
 * in words). Our extension on the device view.
 */
export const DeviceStatusReasons = [
  /** The system refused to open its serial port (Linux: the user is not in `dialout`). */
  'port-access-denied',
  /** Its port cannot be opened or went away (unplugged, renamed, another program holds it). */
  'port-missing',
  /** The port is open but the modem stopped answering. */
  'not-answering',
  /** The modem answers but cannot be used yet (it is still booting, or refuses setup). */
  'not-usable',
  /** The connection to it closed. */
  'disconnected',
  /** Known, but no driver runs for it now. */
  'not-connected',
  /** Its radio is off (+CFUN 0 or 4, flight mode) and would not switch on. */
  'radio-off',
] as const;
export type DeviceStatusReason = (typeof DeviceStatusReasons)[number];

/**
 * How a member of the pool is reached: AT commands on a serial port (default), a HiLink stick's
 * web API, or the SMS Gateway for Android app on a phone (server/devices/phone/).
 */
export const ModemKinds = ['serial', 'hilink', 'android'] as const;
export type ModemKind = (typeof ModemKinds)[number];

/**
 * What a device can do beyond sending SMS (`server/devices/pool/capabilities.ts`), as the device view
 * lists them under `modem.capabilities`; the UI shows a device's panels from this list.
 */
export const DeviceCapabilityNames = [
  'ussd',
  'simPin',
  'smsService',
  'storage',
  'calls',
  'deliveryReports',
  'atLog',
  'mms',
] as const;
export type DeviceCapabilityName = (typeof DeviceCapabilityNames)[number];

/** A status report matched to a part the driver sent (TS 23.040 §9.2.3.15 TP-Status). */
export interface DeliveryReport {
  deviceId: string;
  /** TP-MR of the part the report is about. */
  reference: number;
  recipient: string;
  status: number;
  dischargedAt: number;
}

/** Upstream device record (docs/decisions.md#devices) plus our modem fields under `modem`. */
export interface SimCardInfo {
  slotIndex: number;
  simNumber: number;
  phoneNumber?: string;
  carrierName?: string;
  iccid?: string;
}

export interface SignalInfo {
  /** Raw +CSQ <rssi> 0..31 (99 = unknown). */
  rssi: number;
  dbm?: number;
  /** 0..4 for the UI. */
  bars: number;
}

export interface ModemDetails {
  /** Port path or "simulated:N". */
  port: string;
  simulated: boolean;
  status: ModemStatus;
  /** How it is reached (`ModemKinds`); absent for a serial modem. */
  kind?: ModemKind;
  /** An Android phone's own report (the app's GET /health). */
  phone?: PhoneHealthDetails;
  /** What it can do beyond sending (`DeviceCapabilityNames`); set by the pool. */
  capabilities?: DeviceCapabilityName[];
  /** What this kind of modem cannot do, in words for the modem card. */
  limitations?: string[];
  /** Why the status is what it is, in words a user understands. */
  statusDetail?: string;
  /** The same as a code, where the gateway knows one. */
  statusReason?: DeviceStatusReason;
  manufacturer?: string;
  model?: string;
  revision?: string;
  imei?: string;
  usb?: { vendorId?: string; productId?: string; serialNumber?: string };
  signal?: SignalInfo;
  operator?: string;
  /** The best of +CREG, +CGREG and +CEREG: an LTE-only attach is registered. */
  registration?: RegistrationName;
  /** Access technology in use. */
  radio?: RadioTechnology;
  /** Technologies the modem can use (AT+WS46=?), when it says. */
  radioSupport?: RadioTechnology[];
  /** SMS domain preference (AT+CGSMS), and the ones the modem offers to set. */
  smsService?: SmsServicePreference;
  smsServiceOptions?: SmsServicePreference[];
  simState?: string;
  smsc?: string;
  /** How full each message memory is (AT+CPMS?), read with every health round. */
  messageStorage?: StorageUse[];
  /**
   * The relay link to the SMSC kept open with `+CMMS` (TS 27.005 §3.5.6), when the modem offers
   * it: the mode in use and how many parts went out on a link still open from the previous one.
   */
  relayLink?: { mode: 1 | 2; keptLinkSends: number };
  /**
   * The memory delivery reports land in was last found full then: the modem refused the reports
   * that came, so messages sent around then may never reach Delivered.
   */
  reportsRefused?: { memory: string; at: number };
  /** The last scheduled (or asked) balance answer, when the modem has a balance code. */
  balance?: { answer: string; amount?: number; at: number; low: boolean };
}

export interface PhoneHealthDetails {
  batteryPercent?: number;
  charging?: boolean;
  /** The phone's internet connection (Wi-Fi or mobile data), not its SMS network. */
  internet?: boolean;
  appVersion?: string;
}

export interface DeviceInfo {
  id: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  lastSeen: number;
  simCards: SimCardInfo[];
  modem: ModemDetails;
}

/** Access technologies as users name them. */
export const RadioTechnologies = ['2G', '3G', '4G', '5G'] as const;
export type RadioTechnology = (typeof RadioTechnologies)[number];

/** The registration state (TS 27.007 §7.2 <stat>) in words. */
export const RegistrationNames = [
  'not-registered',
  'home',
  'searching',
  'denied',
  'unknown',
  'roaming',
] as const;
export type RegistrationName = (typeof RegistrationNames)[number];

/** How full one message memory is, from `AT+CPMS?` (TS 27.005 §3.2.2). */
export interface StorageUse {
  /** "SM" (SIM), "ME" (modem), "MT" (both), "SR" (status reports)… */
  memory: string;
  used: number;
  total: number;
  /** What the memory is selected for: reading and deleting, writing, receiving. */
  roles: StorageRole[];
}

export const StorageRoles = ['read', 'write', 'receive'] as const;
export type StorageRole = (typeof StorageRoles)[number];

/** A voice call that rang on a modem (`call:missed`). */
export interface MissedCallEvent {
  id: string;
  deviceId: string;
  /** Absent when the caller withheld the number. */
  number?: string;
  at: number;
  rejected: boolean;
}

/** A scheduled balance check found the balance below the modem's threshold (`modem:low-balance`). */
export interface LowBalanceEvent {
  deviceId: string;
  balance: number;
  threshold: number;
  /** The network's whole answer. */
  answer: string;
  at: number;
}
