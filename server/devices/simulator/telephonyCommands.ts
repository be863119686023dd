/** USSD and call commands: +CUSD (TS 27.007 §7.15), +CLIP (§7.6), ATH (V.250 §6.3.6), +CHUP (§6.5). */
import { integerArgument } from './atCommandLine.js';
import { type CommandDefinition, cmeError, ok, plainError, requiringSim } from './commandTypes.js';
import { CmeCode } from './resultCodes.js';

export const telephonyCommands: Record<string, CommandDefinition> = {
  '+CUSD': requiringSim({
    read: () => ok('+CUSD: 1'),
    test: () => ok('+CUSD: (0-2)'),
    set(context, args) {
      const mode = integerArgument(args[0], 0, 2);
      if (mode === undefined || args.length > 3) return cmeError(CmeCode.OperationNotSupported);
      if (mode === 2) {
        context.telephony.cancel();
        return ok();
      }
      const str = args[1];
      if (str === undefined || str === '') return ok();
      return context.telephony.request(str) ? ok() : plainError();
    },
  }),
  '+CLIP': {
    read: (context) => ok(`+CLIP: ${context.profile.callerId},1`),
    test: () => ok('+CLIP: (0,1)'),
    set(context, args) {
      const value = integerArgument(args[0], 0, 1);
      if (value === undefined || args.length > 1) return cmeError(CmeCode.OperationNotSupported);
      context.profile.callerId = value;
      return ok();
    },
  },
  H: {
    action(context, _args, command) {
      if (command.args !== '' && command.args !== '0') return plainError();
      context.telephony.hangUp('ATH');
      return ok();
    },
  },
  '+CHUP': {
    action(context) {
      context.telephony.hangUp('AT+CHUP');
      return ok();
    },
    test: () => ok(),
  },
};
