import type { DeviceInfo } from '../../contract/domain/device.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { OutboundModem } from './outboundModem.js';

/**
 * The modems the gateway knows, online or not. Implemented by the modem pool; read by the
 * API (devices, health), the scheduler (who can send) and the UI.
 */
export interface DeviceDirectory {
  list(): DeviceInfo[];
  /** The ids `list` would give, without building a view of each (read on every POST). */
  ids(): string[];
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

/** The device with that id; 404 naming `id` when the gateway does not know it. */
export function requireDevice(devices: Pick<DeviceDirectory, 'get'>, id: string): DeviceInfo {
  const device = devices.get(id);
  if (!device) throw new GatewayError(ErrorCode.NotFound, `device ${id} not found`, { field: 'id' });
  return device;
}
