import type { HttpExtension } from '../doors/http/app.js';
import { type BridgeName, registerBridgeRoutes } from '../doors/http/routes/bridgeRoutes.js';
import { probeSmppServer } from '../doors/smpp/smppProbe.js';
import type { MailForwarding } from '../doors/smtp/mailForwarding.js';
import { probeSmtpListener } from '../doors/smtp/smtpProbe.js';
import type { SwitchedListener } from '../services/settings/switchedListener.js';

/** The routes of the ways in beside HTTP: their state for the status bar, and a test of each. */
export function bridgeExtension(deps: {
  smtp: SwitchedListener;
  smpp: SwitchedListener;
  forwarding: MailForwarding;
}): HttpExtension {
  const listening = (listener: SwitchedListener, what: string) => {
    const state = listener.state();
    if (state.state !== 'listening') {
      throw new Error(
        state.state === 'failed' ? `${what} could not start: ${state.error}` : `${what} is off`,
      );
    }
    return state;
  };
  const test = async (name: BridgeName): Promise<string> => {
    switch (name) {
      case 'smtp': {
        const { host, port } = listening(deps.smtp, 'the SMTP listener');
        return probeSmtpListener(host, port);
      }
      case 'smpp': {
        const { host, port } = listening(deps.smpp, 'the SMPP server');
        return probeSmppServer(host, port);
      }
      case 'email':
        return deps.forwarding.sendTest();
    }
  };
  return (api) =>
    registerBridgeRoutes(api, { status: () => ({ smtp: deps.smtp.state(), smpp: deps.smpp.state() }), test });
}
