/**
 * SIM and network: +CPIN (TS 27.007 §8.3), +CSQ (§8.5), +CREG (§7.2), +CGREG (§10.1.20),
 * +CEREG (§10.1.22, only on a modem that speaks 4G), +COPS (§7.3), +WS46 (§5.9) and +CGSMS
 * (§10.1.20).
 */

import type { RadioTechnology } from '../../contract/domain/device.js';
import type { RegistrationDomain } from '../modem/networkState.js';
import type { CommandForm } from './atCommandLine.js';
import { integerArgument } from './atCommandLine.js';
import {
  type CommandContext,
  type CommandDefinition,
  type CommandHandler,
  cmeError,
  ok,
  plainError,
} from './commandTypes.js';
import { operatorCode } from './modemIdentity.js';
import { CmeCode } from './resultCodes.js';

/** TS 27.007 §7.2 <stat>: 1 registered at home, 5 registered roaming. */
export function isRegistered(stat: number): boolean {
  return stat === 1 || stat === 5;
}

// Fixed cell of the simulated network, shown with <n>=2: <lac> and <ci> are hex strings.
const LOCATION_AREA = '00A1';
const CELL_ID = '0001B2C3';

/**
 * The unsolicited form: `+CREG: <stat>` at <n>=1, plus location while registered at <n>=2.
 * The read form puts <n> first (`+CREG: <n>,<stat>[,<lac>,<ci>]`).
 */
export function registrationLine(prefix: string, reports: number, stat: number, withMode: boolean): string {
  const fields = withMode ? [String(reports), String(stat)] : [String(stat)];
  if (reports === 2 && isRegistered(stat)) fields.push(`"${LOCATION_AREA}"`, `"${CELL_ID}"`);
  return `${prefix}: ${fields.join(',')}`;
}

type ReportsKey = 'registrationReports' | 'packetRegistrationReports' | 'epsRegistrationReports';

function registrationCommand(prefix: RegistrationDomain, key: ReportsKey): CommandDefinition {
  return {
    read: (context) =>
      ok(registrationLine(prefix, context.profile[key], context.registrationIn(prefix), true)),
    test: () => ok(`${prefix}: (0-2)`),
    set(context, args) {
      const reports = integerArgument(args[0], 0, 2);
      if (reports === undefined || args.length > 1) return cmeError(CmeCode.OperationNotSupported);
      context.profile[key] = reports;
      return ok();
    },
  };
}

/** TS 27.007 §7.3 <AcT>: 0 GSM, 2 UTRAN, 7 E-UTRAN, 11 NR (5G core). */
const actOf: Record<RadioTechnology, number> = { '2G': 0, '3G': 2, '4G': 7, '5G': 11 };

/** TS 27.007 §5.9 <n> for a set of technologies (5G is not simulated there: 25 stands in). */
function ws46Of(technologies: readonly RadioTechnology[]): number {
  const has = (technology: RadioTechnology) => technologies.includes(technology);
  if (has('2G') && has('3G') && has('4G')) return 25;
  if (has('2G') && has('3G')) return 29;
  if (has('2G') && has('4G')) return 30;
  if (has('3G') && has('4G')) return 31;
  if (has('4G')) return 28;
  return has('3G') ? 22 : 12;
}

/** TS 27.007 §5.9 <n> values up to 31 and the networks each selects. */
const ws46Selections: readonly (readonly [number, readonly RadioTechnology[]])[] = [
  [12, ['2G']],
  [22, ['3G']],
  [25, ['2G', '3G', '4G']],
  [28, ['4G']],
  [29, ['2G', '3G']],
  [30, ['2G', '4G']],
  [31, ['3G', '4G']],
];

/** AT+WS46=? lists every <n> the radio can serve, as real LTE modems do (Cinterion: 12,22,25,28,29). */
function ws46Offered(technologies: readonly RadioTechnology[]): number[] {
  return ws46Selections
    .filter(([, networks]) => networks.every((network) => technologies.includes(network)))
    .map(([n]) => n);
}

/** A modem without LTE has no +CEREG at all: every form answers ERROR. */
function onlyWith4G(definition: CommandDefinition): CommandDefinition {
  const guarded: CommandDefinition = {};
  for (const [form, handler] of Object.entries(definition) as [CommandForm, CommandHandler][]) {
    guarded[form] = (context, args, command) =>
      context.radio.technologies.includes('4G') ? handler(context, args, command) : plainError();
  }
  return guarded;
}

function signalLine(context: CommandContext): string {
  // No radio, no measurement: <rssi> 99 "not known or not detectable".
  return `+CSQ: ${context.radio.radioOn ? context.radio.rssi : 99},99`;
}

export const networkCommands: Record<string, CommandDefinition> = {
  '+CPIN': {
    read: (context) => ok(`+CPIN: ${context.sim.status}`),
    test: () => ok(),
    set(context, args) {
      const pin = args[0];
      if (pin === undefined || pin === '') return cmeError(CmeCode.OperationNotSupported);
      switch (context.sim.enterPin(pin)) {
        case 'unlocked':
          return ok();
        case 'wrong':
          return cmeError(CmeCode.IncorrectPassword);
        case 'blocked':
          return cmeError(CmeCode.SimPukRequired);
        case 'not-required':
          return cmeError(CmeCode.OperationNotAllowed);
      }
    },
  },
  '+CSQ': {
    action: (context) => ok(signalLine(context)),
    test: () => ok('+CSQ: (0-31,99),(0-7,99)'),
  },
  '+CREG': registrationCommand('+CREG', 'registrationReports'),
  '+CGREG': registrationCommand('+CGREG', 'packetRegistrationReports'),
  '+CEREG': onlyWith4G(registrationCommand('+CEREG', 'epsRegistrationReports')),
  '+WS46': {
    read: (context) => ok(`+WS46: ${ws46Of(context.radio.technologies)}`),
    test: (context) => ok(`+WS46: (${ws46Offered(context.radio.technologies).join(',')})`),
  },
  '+CGSMS': {
    read: (context) => ok(`+CGSMS: ${context.radio.smsService}`),
    test: () => ok('+CGSMS: (0-3)'),
    set(context, args) {
      const service = integerArgument(args[0], 0, 3);
      if (service === undefined || args.length > 1) return cmeError(CmeCode.OperationNotSupported);
      context.radio.smsService = service;
      return ok();
    },
  },
  '+COPS': {
    // <mode> 0 automatic, <format> 0 long name, <AcT> of the attached technology.
    read: (context) =>
      isRegistered(context.registrationStatus())
        ? ok(`+COPS: 0,0,"${context.identity.operator}",${actOf[context.radio.attached]}`)
        : ok('+COPS: 0'),
    test: (context) => {
      const { operator } = context.identity;
      return ok(`+COPS: (2,"${operator}","${operator}","${operatorCode(context.identity)}",2),,(0-4),(0-2)`);
    },
    set(_context, args) {
      return integerArgument(args[0], 0, 4) === undefined ? cmeError(CmeCode.OperationNotSupported) : ok();
    },
  },
};
