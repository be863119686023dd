import { type DeviceCapabilityName, DeviceCapabilityNames } from '../../contract/domain/device.js';
import type { SmsServicePreference } from '../../contract/domain/smsServicePreference.js';

/**
 * What a device can do beyond sending: one optional object per capability, as ModemManager
 * gives a modem one interface per capability and zigbee-herdsman asks `supportsX()`. A kind
 * publishes only what it really does; the pool answers a request for a missing one with
 * InvalidState, and the device view lists the names so the UI shows only the panels that work.
 */
export interface DeviceCapabilities {
  /** USSD requests and the sessions the network keeps open (TS 27.007 §7.15). */
  ussd?: UssdCapability;
  /** A SIM PIN typed by the user. */
  simPin?: SimPinCapability;
  /** The SMS domain (circuit or packet, AT+CGSMS). */
  smsService?: SmsServiceCapability;
  /** Messages kept in the device's own memory, read again on demand. */
  storage?: StorageCapability;
  /** Incoming voice calls are told (recorded as missed, hung up on when the setting says). */
  calls?: true;
  /** Status reports come back for what it sent. */
  deliveryReports?: true;
  /** Its AT traffic is recorded for the modem page. */
  atLog?: true;
  /** It sends MMS (`OutboundModem.sendsMms`): a phone whose app takes `mmsMessage`, found by probing. */
  mms?: true;
}

/** The network's answer to one USSD request. */
export interface UssdAnswer {
  /** TS 27.007 §7.15 <m>: 0 done, 1 the network waits for a reply, 2 it ended the session. */
  status: number;
  text: string;
}

export interface UssdCapability {
  /** A USSD request or the reply in an open session. */
  ussd(text: string): Promise<UssdAnswer>;
  /** Ends the USSD session the network holds open. */
  cancelUssd(): Promise<void>;
}

export interface SimPinCapability {
  /** Unlocks the SIM with a PIN the user typed (never retried automatically). */
  enterPin(pin: string): Promise<void>;
}

export interface SmsServiceCapability {
  setSmsService(preference: SmsServicePreference): Promise<void>;
}

export interface StorageCapability {
  /** Re-reads the messages in the device's memory into the inbox. */
  refreshInbox(): Promise<void>;
}

/** The names of the capabilities a device has, in the order of `DeviceCapabilityNames`. */
export function capabilityNames(capabilities: DeviceCapabilities): DeviceCapabilityName[] {
  return DeviceCapabilityNames.filter((name) => capabilities[name] !== undefined);
}
