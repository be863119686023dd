import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { RegistrationDomain } from '../modem/networkState.js';
import type { RadioState } from './commandTypes.js';
import type { ModemOutput } from './modemOutput.js';
import type { ModemProfile } from './modemProfile.js';
import { registrationLine } from './networkCommands.js';
import { frameResponse } from './resultCodes.js';
import type { SimCard } from './simCard.js';

/**
 * The simulated network's registration and signal (TS 27.007 §7.2, §8.5): what <stat> each
 * domain reports, and the unsolicited +CREG/+CGREG/+CEREG when it changes and the host asked
 * for them.
 */
export class NetworkRegistration {
  private announced: number;

  constructor(
    readonly radio: RadioState,
    private readonly sim: SimCard,
    private readonly output: ModemOutput,
    private readonly profile: () => ModemProfile,
  ) {
    this.announced = this.status();
  }

  /** The <stat> the modem reports now: 0 while the SIM is locked or the radio is off. */
  status(): number {
    return this.sim.isReady && this.radio.radioOn ? this.radio.registration : 0;
  }

  /** The <stat> one domain reports: an LTE attach shows only in +CEREG, a 2G/3G one not there. */
  statusIn(domain: RegistrationDomain): number {
    const onLte = this.radio.attached === '4G' || this.radio.attached === '5G';
    return onLte === (domain === '+CEREG') ? this.status() : 0;
  }

  /** The network's registration <stat>, announced when enabled. */
  set(stat: number): void {
    if (!Number.isInteger(stat) || stat < 0 || stat > 5) {
      throw new GatewayError(ErrorCode.ValidationFailed, 'registration <stat> is 0..5', { field: 'stat' });
    }
    this.radio.registration = stat;
    this.announce();
  }

  /** +CSQ <rssi>: 0..31, or 99 for unknown. */
  setSignal(rssi: number): void {
    if (!Number.isInteger(rssi) || ((rssi < 0 || rssi > 31) && rssi !== 99)) {
      throw new GatewayError(ErrorCode.ValidationFailed, '<rssi> is 0..31 or 99', { field: 'rssi' });
    }
    this.radio.rssi = rssi;
  }

  /** Says the new <stat> in every domain the host enabled, once per change. */
  announce(): void {
    const stat = this.status();
    if (stat === this.announced) return;
    this.announced = stat;
    const { registrationReports, packetRegistrationReports, epsRegistrationReports } = this.profile();
    const announce = (domain: RegistrationDomain, reports: number) => {
      if (reports > 0)
        this.output.write(frameResponse([registrationLine(domain, reports, this.statusIn(domain), false)]));
    };
    announce('+CREG', registrationReports);
    announce('+CGREG', packetRegistrationReports);
    if (this.radio.technologies.includes('4G')) announce('+CEREG', epsRegistrationReports);
  }
}
