import type { AtSession } from '../at/atSession.js';
import type { DeliveryReport } from '../domain/device.js';
import type { DecodedDeliver } from '../pdu/index.js';
import type { Transport } from '../transport/transport.js';

/** The part of the AT session a modem driver uses (the composition root passes `AtSession`). */
export type ModemSession = Pick<
  AtSession,
  'open' | 'close' | 'execute' | 'sendPdu' | 'cancelPendingInput' | 'onUnsolicited' | 'onClose'
>;

/** Builds a session over a freshly opened transport (one per (re)connect). */
export type SessionFactory = (transport: Transport) => ModemSession;

/** Hands a received SMS (one part) to the inbox; resolves once it is durably kept. */
export type IncomingSink = (deviceId: string, simNumber: number, sms: DecodedDeliver) => Promise<void>;

/** Receives status reports; the composition root wires `MessageLifecycle.applyDeliveryReport`. */
export type DeliveryReportSink = (report: DeliveryReport) => Promise<unknown>;
