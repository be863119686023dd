/**
 * Vendor commands that choose the USB interface unsolicited codes go to, for a simulated
 * multi-port modem (option `indicationPort`): Huawei's AT^PORTSEL (0 modem port, 1 PC UI
 * port; the simulator's command port plays the PC UI) and Quectel's AT+QURCCFG="urcport"
 * ("usbat" is the command port here, "all" includes it, "usbmodem" and "uart1" do not).
 */
import { integerArgument } from './atCommandLine.js';
import { type CommandDefinition, cmeError, ok } from './commandTypes.js';
import { CmeCode } from './resultCodes.js';

const quectelPorts = ['usbat', 'usbmodem', 'uart1', 'all'];

export const urcRoutingCommands: Record<string, CommandDefinition> = {
  '^PORTSEL': {
    read: (context) => ok(`^PORTSEL: ${context.urcRouting.toCommandPort ? 1 : 0}`),
    test: () => ok('^PORTSEL: (0-1)'),
    set(context, args) {
      const mode = integerArgument(args[0], 0, 1);
      if (mode === undefined || args.length > 1) return cmeError(CmeCode.OperationNotSupported);
      context.urcRouting.toCommandPort = mode === 1;
      return ok();
    },
  },
  '+QURCCFG': {
    test: () => ok(`+QURCCFG: "urcport",(${quectelPorts.map((port) => `"${port}"`).join(',')})`),
    set(context, args) {
      if (args[0]?.toLowerCase() !== 'urcport') return cmeError(CmeCode.OperationNotSupported);
      const port = args[1]?.toLowerCase();
      if (port === undefined) return ok(`+QURCCFG: "urcport","${context.urcRouting.quectelPort}"`);
      if (!quectelPorts.includes(port) || args.length > 2) return cmeError(CmeCode.OperationNotSupported);
      context.urcRouting.quectelPort = port;
      context.urcRouting.toCommandPort = port === 'usbat' || port === 'all';
      return ok();
    },
  },
};
