/**
 * V.250 basics and identification: ATE, ATZ, AT&F, ATI, +CMEE, +CGMI/+CGMM/+CGMR/+CGSN (TS
 * 27.007 §5), +CIMI, +CCID/^ICCID, +CNUM, +CFUN, +CSCS and +CLAC.
 */
import { integerArgument } from './atCommandLine.js';
import {
  type CommandContext,
  type CommandDefinition,
  cmeError,
  ok,
  plainError,
  requiringSim,
} from './commandTypes.js';
import { type ModemIdentity, typeOfAddress } from './modemIdentity.js';
import { CmeCode, type ErrorVerbosity } from './resultCodes.js';

/** The plain-text identity commands: the action answers the value, the test form just OK. */
function identityCommand(value: (identity: ModemIdentity) => string): CommandDefinition {
  return {
    action: (context) => ok(value(context.identity)),
    test: () => ok(),
  };
}

/** Basic commands take an optional single digit; V.250 §5.3.1 treats a missing one as 0. */
function basicValue(args: string, max: number): number | undefined {
  return integerArgument(args === '' ? '0' : args, 0, max);
}

function iccidCommand(prefix: string): CommandDefinition {
  const answer = (context: CommandContext) => ok(`${prefix}: ${context.identity.iccid}`);
  return { action: answer, read: answer, test: () => ok() };
}

const characterSets = ['IRA', 'GSM', 'UCS2'];

export const generalCommands: Record<string, CommandDefinition> = {
  E: {
    action(context, _args, command) {
      const value = basicValue(command.args, 1);
      if (value === undefined) return plainError();
      context.profile.echo = value === 1;
      return ok();
    },
  },
  Z: {
    action(context, _args, command) {
      if (basicValue(command.args, 0) === undefined) return plainError();
      context.restoreProfile('stored');
      return ok();
    },
  },
  '&F': {
    action(context, _args, command) {
      if (basicValue(command.args, 0) === undefined) return plainError();
      context.restoreProfile('factory');
      return ok();
    },
  },
  I: {
    action(context, _args, command) {
      if (basicValue(command.args, 0) === undefined) return plainError();
      const { manufacturer, model, revision, imei } = context.identity;
      return ok(`Manufacturer: ${manufacturer}`, `Model: ${model}`, `Revision: ${revision}`, `IMEI: ${imei}`);
    },
  },
  '+CMEE': {
    read: (context) => ok(`+CMEE: ${context.profile.errorVerbosity}`),
    test: () => ok('+CMEE: (0-2)'),
    set(context, args) {
      const level = integerArgument(args[0], 0, 2);
      if (level === undefined || args.length > 1) return cmeError(CmeCode.OperationNotSupported);
      context.profile.errorVerbosity = level as ErrorVerbosity;
      return ok();
    },
  },
  '+CGMI': identityCommand((identity) => identity.manufacturer),
  '+CGMM': identityCommand((identity) => identity.model),
  '+CGMR': identityCommand((identity) => identity.revision),
  '+CGSN': identityCommand((identity) => identity.imei),
  // TS 27.007 §5.6: the IMSI is read from the SIM, so it needs the PIN.
  '+CIMI': requiringSim(identityCommand((identity) => identity.imsi)),
  // The ICCID is readable without the PIN (it is outside the PIN-protected files); +CCID is
  // the common form (Sierra, SIMCom, Quectel), ^ICCID the Huawei one.
  '+CCID': iccidCommand('+CCID'),
  '^ICCID': iccidCommand('^ICCID'),
  '+CNUM': requiringSim({
    // TS 27.007 §7.1: SIMs without an MSISDN record answer just OK.
    action: (context) => {
      const number = context.identity.ownNumber;
      return number === '' ? ok() : ok(`+CNUM: "","${number}",${typeOfAddress(number)}`);
    },
    test: () => ok(),
  }),
  '+CFUN': {
    read: (context) => ok(`+CFUN: ${context.radio.radioOn ? 1 : 4}`),
    test: () => ok('+CFUN: (0,1,4),(0-1)'),
    // TS 27.007 §8.2: <fun> 1 full, 0 minimum and 4 radio off; <rst> 1 restarts first.
    set(context, args) {
      const fun = integerArgument(args[0], 0, 4);
      const reset = args[1] === undefined ? 0 : integerArgument(args[1], 0, 1);
      if (fun === undefined || reset === undefined || fun === 2 || fun === 3) {
        return cmeError(CmeCode.OperationNotSupported);
      }
      if (fun === 1 && !context.radio.radioSwitchable) return cmeError(CmeCode.OperationNotAllowed);
      if (reset === 1) context.restart();
      context.radio.radioOn = fun === 1;
      return ok();
    },
  },
  // TS 27.007 §5.5: the character set of text fields (a USSD string, an operator name).
  '+CSCS': {
    read: (context) => ok(`+CSCS: "${context.profile.characterSet}"`),
    test: () => ok(`+CSCS: (${characterSets.map((name) => `"${name}"`).join(',')})`),
    set(context, args) {
      const name = args[0]?.toUpperCase();
      if (args.length !== 1 || name === undefined || !characterSets.includes(name)) {
        return cmeError(CmeCode.OperationNotSupported);
      }
      context.profile.characterSet = name;
      return ok();
    },
  },
  '+CLAC': {
    action: (context) => ok(...context.supportedCommands()),
  },
};
