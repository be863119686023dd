import type { DeliveryReport } from '../../contract/domain/device.js';
import type { DecodedDeliver } from '../../contract/pdu/index.js';

/**
 * Where every kind of device hands what it received; the composition root wires them to the
 * inbox, the message lifecycle and the operations.
 */
/** Hands a received SMS (one part) to the inbox; resolves once it is durably kept. */
export type IncomingSink = (deviceId: string, simNumber: number, sms: DecodedDeliver) => Promise<void>;

/** Receives status reports; the composition root wires `MessageLifecycle.applyDeliveryReport`. */
export type DeliveryReportSink = (report: DeliveryReport) => Promise<unknown>;

/** A voice call that rang on a modem (the gateway never answers one). */
export interface IncomingCall {
  deviceId: string;
  /** The caller's number from +CLIP; absent when withheld or the modem did not say. */
  number?: string;
  /** When it first rang, ms since epoch. */
  at: number;
  /** True when the gateway hung up on it; false when it rang until the caller gave up. */
  rejected: boolean;
}

export type CallSink = (call: IncomingCall) => void;
