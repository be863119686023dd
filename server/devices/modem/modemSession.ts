import type { AtSession } from '../at/atSession.js';
import type { Transport } from '../transport/transport.js';

/** The part of the AT session a modem driver uses (the composition root passes `AtSession`). */
export type ModemSession = Pick<
  AtSession,
  'open' | 'close' | 'execute' | 'sendPdu' | 'cancelPendingInput' | 'onUnsolicited' | 'onClose'
>;

/** Wraps a session so every answer to a command calls `answered` (the driver's `lastSeen`). */
export function trackAnswers(session: ModemSession, answered: () => void): ModemSession {
  return {
    open: () => session.open(),
    close: () => session.close(),
    execute: async (command, options) => {
      const response = await session.execute(command, options);
      answered();
      return response;
    },
    sendPdu: async (command, pdu, waits) => {
      const response = await session.sendPdu(command, pdu, waits);
      answered();
      return response;
    },
    cancelPendingInput: (quietMs) => session.cancelPendingInput(quietMs),
    onUnsolicited: (listener) => session.onUnsolicited(listener),
    onClose: (listener) => session.onClose(listener),
  };
}

/** Builds a session over a freshly opened transport (one per (re)connect). */
export type SessionFactory = (transport: Transport) => ModemSession;
