import type { DeviceInfo, ModemStatus } from '../../contract/domain/device.js';
import type { MobileSimCard } from './mobileApi.js';

/** A modem in these has no SIM the network knows: the app lists only active subscriptions. */
const withoutActiveSim: readonly ModemStatus[] = [
  'offline',
  'sim-pin-required',
  'sim-pin-wrong',
  'not-a-modem',
];

/**
 * The SIM cards the server is told this gateway has: those of every modem of the pool that is
 * connected and unlocked — the server knows the whole pool as one device, and our scheduler takes
 * a message's `simNumber` as "a modem with that slot". The built-in simulator's SIM is left out
 * once a real modem is there, as the simulator then takes no message meant for the real world.
 * Numbers, carrier and ICCID are masked as the app masks them before they leave the phone
 * (capcom6/android-sms-gateway `GatewayService.kt` toDTO/redact, commit
 * 0cdc5d86c6f3cc24101f27feefd926e801e8b2c7).
 */
export function simCardsOf(devices: readonly DeviceInfo[]): MobileSimCard[] {
  const active = devices.filter((device) => !withoutActiveSim.includes(device.modem.status));
  const real = active.filter((device) => !device.modem.simulated);
  return (real.length > 0 ? real : active).flatMap((device) =>
    device.simCards.map((card) => {
      const masked: MobileSimCard = { slotIndex: card.slotIndex, simNumber: card.simNumber };
      if (card.phoneNumber !== undefined) masked.phoneNumber = redact(card.phoneNumber);
      if (card.carrierName !== undefined) masked.carrierName = redact(card.carrierName);
      if (card.iccid !== undefined) masked.iccid = redact(card.iccid);
      return masked;
    }),
  );
}

/** The app's `String.redact()`: all but the last four characters become `*`; four or fewer, `****`. */
export function redact(value: string): string {
  return value.length > 4 ? '*'.repeat(value.length - 4) + value.slice(-4) : '****';
}
