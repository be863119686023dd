import type { DeviceInfo, DeviceStatusReason, ModemStatus } from './device.js';

/** What a person can do about a modem in each state that is not ready, in plain words. */
const statusAdvice: Partial<Record<ModemStatus, string>> = {
  starting: 'is still starting',
  'sim-pin-required': 'waits for its SIM PIN — enter it on the Modems screen',
  'sim-pin-wrong': 'refused the SIM PIN — enter the right one on the Modems screen',
  recovering: 'is reconnecting',
  'no-network': 'is registered to no network — check the SIM card and the signal where it stands',
  offline: 'is offline — check the USB cable',
  'not-a-modem': 'does not answer AT — check the address on the Modems screen',
};

const reasonAdvice: Record<DeviceStatusReason, string> = {
  'port-access-denied': 'cannot be opened — this user may not use its port (see the fix on the Dashboard)',
  'port-missing':
    'is offline: its port is gone — check the USB cable, or close the program that holds the port',
  'not-answering': 'stopped answering — unplug it and plug it in again',
  'not-usable': 'answers but cannot be used yet — it may still be starting',
  disconnected: 'lost its connection — check the USB cable',
  'not-connected': 'is not connected — plug it in',
  'radio-off': 'has its radio off (flight mode) and would not switch it on',
};

/**
 * A device that is not ready, named as people know it and with what to do: "Modem Huawei E3372
 * on COM5 is offline — check the USB cable", or "“Front desk” (Huawei E3372) on COM5 …" once
 * renamed. Pure: the health report and the desktop's notifications say the same.
 */
export function describeNotReady(device: Pick<DeviceInfo, 'name' | 'modem'>): string {
  const { modem } = device;
  const model = [modem.manufacturer, modem.model].filter(Boolean).join(' ');
  // The pool names a new modem after its model, or its port when it tells none.
  const named =
    device.name === modem.port
      ? `Modem ${modem.port}`
      : device.name === model
        ? `Modem ${model} on ${modem.port}`
        : `“${device.name}”${model ? ` (${model})` : ''} on ${modem.port}`;
  const advice =
    (modem.statusReason && reasonAdvice[modem.statusReason]) ??
    statusAdvice[modem.status] ??
    `is ${modem.status}`;
  return `${named} ${advice}`;
}
