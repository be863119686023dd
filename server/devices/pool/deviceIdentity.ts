import { createHash } from 'node:crypto';

/**
 * A device id must survive replugging (new port name) and restarts, so it comes from the most
 * stable identity available: the IMEI (TS 23.003 §6), else the USB serial number, else the port.
 */
export interface IdentitySource {
  imei?: string;
  usbSerialNumber?: string;
  port: string;
}

export function deriveDeviceId(source: IdentitySource): string {
  const imei = source.imei?.replace(/\D/g, '');
  const basis =
    imei && imei.length >= 14
      ? `imei:${imei}`
      : source.usbSerialNumber
        ? `usb:${source.usbSerialNumber}`
        : `port:${source.port}`;
  return createHash('sha256').update(basis).digest('hex').slice(0, 16);
}
