/**
 * How an Android phone shows in the pool (GET /modems, the Modems screen): pure views of what its
 * app last told us (`GET /device`, `GET /health`).
 */
import type {
  ModemDetails,
  ModemStatus,
  PhoneHealthDetails,
  SimCardInfo,
} from '../../contract/domain/device.js';
import type { PhoneDevice, PhoneHealth } from './phoneClient.js';

export const androidLimitations = [
  'Android lets an app send about 30 SMS per 30 minutes unless you allow more on the phone.',
  'Delivery states come from the phone app, not from the network directly.',
  'USSD codes and the SIM PIN are entered on the phone itself: the app offers no route for them.',
] as const;

/** What the pool knows of one phone at this moment. */
export interface PhoneView {
  port: string;
  status: ModemStatus;
  statusDetail?: string;
  device?: PhoneDevice;
  health?: PhoneHealth;
}

export function phoneDetails(view: PhoneView): ModemDetails {
  const details: ModemDetails = {
    port: view.port,
    simulated: false,
    status: view.status,
    kind: 'android',
    limitations: [...androidLimitations],
  };
  if (view.statusDetail) details.statusDetail = view.statusDetail;
  // The app names the device "<manufacturer>/<model>" (GET /device).
  const [manufacturer, model] = (view.device?.name ?? '').split('/');
  if (manufacturer) details.manufacturer = manufacturer;
  if (model) details.model = model;
  const operator = view.device?.simCards?.[0]?.carrierName;
  if (operator) details.operator = operator;
  const phone = phoneHealthDetails(view.health);
  if (phone) details.phone = phone;
  return details;
}

/** The SIMs the app lists, in its order; one (slot 0, SIM 1) before the phone answered. */
export function phoneSimCards(device: PhoneDevice | undefined): SimCardInfo[] {
  const listed = device?.simCards ?? [];
  return (listed.length > 0 ? listed : [undefined]).map((sim) => {
    const card: SimCardInfo = { slotIndex: sim?.slotIndex ?? 0, simNumber: sim?.simNumber ?? 1 };
    if (sim?.phoneNumber) card.phoneNumber = sim.phoneNumber;
    if (sim?.carrierName) card.carrierName = sim.carrierName;
    return card;
  });
}

/** modules/health: "battery:level" (percent), "battery:charging" (flags, bit 0 = charging), "connection:status". */
function phoneHealthDetails(health: PhoneHealth | undefined): PhoneHealthDetails | undefined {
  if (!health) return undefined;
  const details: PhoneHealthDetails = {};
  const level = health.checks?.['battery:level']?.observedValue;
  const charging = health.checks?.['battery:charging']?.observedValue;
  const internet = health.checks?.['connection:status']?.observedValue;
  if (level !== undefined) details.batteryPercent = level;
  if (charging !== undefined) details.charging = (charging & 1) === 1;
  if (internet !== undefined) details.internet = internet === 1;
  if (health.version) details.appVersion = health.version;
  return details;
}
