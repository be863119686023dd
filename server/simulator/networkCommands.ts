/**
 * SIM and network: +CPIN (TS 27.007 §8.3), +CSQ (§8.5), +CREG (§7.2), +CGREG (§10.1.20) and
 * +COPS (§7.3).
 */
import { integerArgument } from './atCommandLine.js';
import { type CommandContext, type CommandDefinition, cmeError, ok } from './commandTypes.js';
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

type ReportsKey = 'registrationReports' | 'packetRegistrationReports';

function registrationCommand(prefix: string, key: ReportsKey): CommandDefinition {
  return {
    read: (context) => ok(registrationLine(prefix, context.profile[key], context.registrationStatus(), true)),
    test: () => ok(`${prefix}: (0-2)`),
    set(context, args) {
      const reports = integerArgument(args[0], 0, 2);
      if (reports === undefined || args.length > 1) return cmeError(CmeCode.OperationNotSupported);
      context.profile[key] = reports;
      return ok();
    },
  };
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
  '+COPS': {
    // <mode> 0 automatic, <format> 0 long name, <AcT> 2 UTRAN (a 3G USB stick).
    read: (context) =>
      isRegistered(context.registrationStatus())
        ? ok(`+COPS: 0,0,"${context.identity.operator}",2`)
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
