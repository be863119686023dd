import type { ModemDetails, SimCardInfo } from '../../contract/domain/device.js';
import type { DeviceCapabilities } from './capabilities.js';
import type { OutboundModem } from './outboundModem.js';

/**
 * What the modem pool holds, whatever the device speaks: a serial AT modem (`ModemDriver`), a
 * HiLink stick's web API (`HiLinkModem`) or an Android phone's app (`AndroidPhone`). Each sends;
 * everything else it can do it publishes in `capabilities`, and leaves out what it cannot.
 */
export interface PoolMember extends OutboundModem {
  /** Where it is reached: a port path, "simulated:N" or a URL. */
  readonly port: string;
  readonly capabilities: DeviceCapabilities;
  start(): Promise<void>;
  stop(): Promise<void>;
  details(): ModemDetails;
  simCard(): SimCardInfo;
  /** Every SIM of a member with several slots (a dual-SIM phone), in slot order; absent: `simCard()`. */
  simCards?(): SimCardInfo[];
  /** Called on every status or detail change. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
  /** Checks at once that the modem still answers (after the PC slept); absent: nothing to check. */
  recheck?(): void;
}
