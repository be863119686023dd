import type { RadioTechnology, RegistrationName } from './networkState.js';
import type { ModemStatus, OutboundModem } from './outboundModem.js';
import type { SmsServicePreference } from './smsServicePreference.js';
import type { StorageUse } from './storageUse.js';

/** Upstream device record (DESIGN §2) plus our modem fields under `modem`. */
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
  /**
   * How it is reached: AT commands on a serial port (default), a HiLink stick's web API, or the
   * SMS Gateway for Android app on a phone (server/phone/).
   */
  kind?: 'serial' | 'hilink' | 'android';
  /** An Android phone's own report (the app's GET /health). */
  phone?: PhoneHealthDetails;
  /** What this kind of modem cannot do, in words for the modem card. */
  limitations?: string[];
  /** Why the status is what it is, in words a user understands. */
  statusDetail?: string;
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

/**
 * The modems the gateway knows, online or not. Implemented by the modem pool; read by the
 * API (devices, health), the scheduler (who can send) and the UI.
 */
export interface DeviceDirectory {
  list(): DeviceInfo[];
  get(id: string): DeviceInfo | undefined;
  /** Modems able to send now, for the scheduler. */
  online(): OutboundModem[];
  /** Forgets a device (DELETE /devices/{id}); false when unknown. */
  forget(id: string): Promise<boolean>;
  /** Re-reads modem storage (AT+CMGL) of one device, or all. */
  refreshInbox(deviceId?: string): Promise<void>;
  /** Unlocks a SIM with a PIN the user typed (never retried automatically). */
  enterPin(deviceId: string, pin: string): Promise<void>;
  /** Called whenever a device's state changes. Returns an unsubscribe function. */
  onChange(listener: (deviceId: string) => void): () => void;
}
