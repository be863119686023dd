/** `+CMMS`, more messages to send (TS 27.005 §3.5.6): the model is in `relayLink.ts`. */
import { integerArgument } from './atCommandLine.js';
import { type CommandDefinition, cmsError, ok } from './commandTypes.js';
import { modeList } from './relayLink.js';
import { CmsCode } from './resultCodes.js';

export const relayLinkCommands: Record<string, CommandDefinition> = {
  '+CMMS': {
    test: (context) => ok(`+CMMS: ${modeList(context.relayLink.modes)}`),
    read: (context) => ok(`+CMMS: ${context.relayLink.mode}`),
    set(context, args) {
      // §3.5.6 `+CMMS=[<n>]`: an omitted <n> is the default 0.
      const text = args[0] === undefined || args[0] === '' ? '0' : args[0];
      const mode = integerArgument(text, 0, 2);
      if (mode === undefined || args.length > 1 || !context.relayLink.setMode(mode)) {
        return cmsError(CmsCode.OperationNotSupported);
      }
      return ok();
    },
  },
};
