import type { ModemDetails, SimCardInfo } from '../domain/device.js';
import type { SmsServicePreference } from '../domain/smsServicePreference.js';
import type { OutboundModem } from './outboundModem.js';
import type { UssdAnswer } from './ussdChannel.js';

/**
 * What the modem pool holds, whatever the modem speaks: a serial AT modem (`ModemDriver`) or a
 * HiLink stick's web API (`HiLinkModem`). Operations a kind cannot do reject with a
 * GatewayError that says so.
 */
export interface PoolMember extends OutboundModem {
  /** Where it is reached: a port path, "simulated:N" or a URL. */
  readonly port: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  details(): ModemDetails;
  simCard(): SimCardInfo;
  /** Called on every status or detail change. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
  refreshInbox(): Promise<void>;
  enterPin(pin: string): Promise<void>;
  setSmsService(preference: SmsServicePreference): Promise<void>;
  /** A USSD request or the reply in an open session (TS 27.007 §7.15). */
  ussd(text: string): Promise<UssdAnswer>;
  /** Ends the USSD session the network holds open. */
  cancelUssd(): Promise<void>;
  /** Checks at once that the modem still answers (after the PC slept); absent: nothing to check. */
  recheck?(): void;
}
