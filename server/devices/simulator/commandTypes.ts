/**
 * What every AT command handler of the simulator sees and returns. Handlers are synchronous
 * and act only on this context; the modem does the I/O, the delays and the `> ` prompt.
 */

import type { RadioTechnology } from '../../contract/domain/device.js';
import type { RegistrationDomain } from '../modem/networkState.js';
import type { AtCommand, CommandForm } from './atCommandLine.js';
import type { MessageStorage } from './messageStorage.js';
import type { ModemIdentity } from './modemIdentity.js';
import type { ModemProfile } from './modemProfile.js';
import type { RelayLink } from './relayLink.js';
import { type AtFailure, CmeCode } from './resultCodes.js';
import type { SimCard } from './simCard.js';
import type { SimulatedTelephony } from './simulatedTelephony.js';

export type CommandReply =
  | { kind: 'ok'; lines: string[] }
  | { kind: 'failed'; failure: AtFailure }
  /** AT+CMGS accepted its <length>: show `> ` and read a PDU of that many TPDU octets. */
  | { kind: 'prompt'; tpduLength: number };

export interface UrcRoutingState {
  /** True: indications come on the command port; false: on the modem's other interface. */
  toCommandPort: boolean;
  /** The last AT+QURCCFG="urcport" value. */
  quectelPort: string;
}

export interface RadioState {
  /** TS 27.007 §7.2 <stat> the network would give with the SIM unlocked and the radio on. */
  registration: number;
  /** TS 27.007 §8.5 <rssi>: 0..31, or 99 for unknown. */
  rssi: number;
  /** AT+CFUN: false after AT+CFUN=0 or 4 (radio off, "flight mode"). */
  radioOn: boolean;
  /** False: AT+CFUN=1 is refused (a hardware radio-disable line holds the radio off). */
  readonly radioSwitchable: boolean;
  /** What the modem can use (AT+WS46), and what it is attached with. */
  technologies: readonly RadioTechnology[];
  attached: RadioTechnology;
  /** AT+CGSMS <service> (TS 27.007 §10.1.20): 0 packet, 1 circuit, 2/3 preferred. */
  smsService: number;
}

export interface CommandContext {
  readonly identity: ModemIdentity;
  readonly sim: SimCard;
  /** The memory AT+CPMS selected for reading and deleting (<mem1>). */
  readonly storage: MessageStorage;
  /** Every memory the modem has, by name ("SM", and "SR" when reports are kept apart). */
  readonly memories: ReadonlyMap<string, MessageStorage>;
  /** AT+CPMS <mem1>: false for a memory the modem does not have. */
  selectMemory(name: string): boolean;
  /** Where indications go on a multi-port modem (AT^PORTSEL, AT+QURCCFG). */
  readonly urcRouting: UrcRoutingState;
  readonly radio: RadioState;
  /** The current profile; handlers change its fields, ATZ / AT&F replace it. */
  readonly profile: ModemProfile;
  /** ATZ ('stored') or AT&F ('factory'). */
  restoreProfile(which: 'stored' | 'factory'): void;
  /** The <stat> the modem reports now: 0 while the SIM is locked or the radio is off. */
  registrationStatus(): number;
  /** The <stat> one domain reports: an LTE attach shows only in +CEREG, a 2G/3G one not there. */
  registrationIn(domain: RegistrationDomain): number;
  /** AT+CNMA: true when a +CMT or +CDS was waiting for it. */
  acknowledgeIndication(): boolean;
  /** After AT+CNMI: hand over or drop the indications buffered while <mode> was 0. */
  indicationSettingsChanged(): void;
  /** AT+CFUN=1,1: restart, which locks a SIM with a PIN again. */
  restart(): void;
  /** The SMS relay link to the SMSC and its `+CMMS` mode. */
  readonly relayLink: Pick<RelayLink, 'mode' | 'modes' | 'setMode'>;
  /** The network's USSD service and voice calls. */
  readonly telephony: Pick<SimulatedTelephony, 'request' | 'cancel' | 'hangUp'>;
  /** Every command name the simulator knows, for AT+CLAC. */
  supportedCommands(): string[];
}

/** `args` are the set form's arguments (`splitArguments`), empty for the other forms. */
export type CommandHandler = (context: CommandContext, args: string[], command: AtCommand) => CommandReply;

/** One command's forms (V.250 §5.3); a form that is absent answers ERROR. */
export type CommandDefinition = Partial<Record<CommandForm, CommandHandler>>;

export const ok = (...lines: string[]): CommandReply => ({ kind: 'ok', lines });
export const plainError = (): CommandReply => ({ kind: 'failed', failure: { kind: 'error' } });
export const cmeError = (code: number): CommandReply => ({ kind: 'failed', failure: { kind: 'cme', code } });
export const cmsError = (code: number): CommandReply => ({ kind: 'failed', failure: { kind: 'cms', code } });

/** TS 27.007 §9.2: commands that need the SIM fail with +CME ERROR 11/12 while it is locked. */
export function simLockFailure(context: CommandContext): CommandReply | undefined {
  if (context.sim.status === 'SIM PIN') return cmeError(CmeCode.SimPinRequired);
  if (context.sim.status === 'SIM PUK') return cmeError(CmeCode.SimPukRequired);
  return undefined;
}

/** Wraps every form of a command so it answers the SIM lock error first. */
export function requiringSim(definition: CommandDefinition): CommandDefinition {
  const guarded: CommandDefinition = {};
  for (const [form, handler] of Object.entries(definition) as [CommandForm, CommandHandler][]) {
    guarded[form] = (context, args, command) => simLockFailure(context) ?? handler(context, args, command);
  }
  return guarded;
}
