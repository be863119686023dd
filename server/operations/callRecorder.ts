import { randomUUID } from 'node:crypto';
import type { CallSink } from '../devices/sinks.js';
import { describeError } from '../errors/gatewayError.js';
import type { EventBus } from '../events/eventBus.js';
import type { Logger } from '../logging/logger.js';
import type { EnqueueRequest } from '../messages/messageService.js';
import type { CallRecord } from '../store/modemRecords.js';
import type { ModemOperationsSettings } from '../validation/modemOperationsSchemas.js';

export interface CallRecorderOptions {
  /** Stores the call; `inCommit` runs inside the commit that stores it. */
  addCall(call: CallRecord, inCommit: () => void): Promise<void>;
  settings(deviceId: string): ModemOperationsSettings;
  /** Queues the SMS answer like any message (the scheduler sends it when the modem is free). */
  enqueue(request: EnqueueRequest): Promise<unknown>;
  events: EventBus;
  logger: Logger;
}

/**
 * Every incoming call becomes a missed call: stored (GET /gateway/v1/calls), announced
 * (`call:missed`), and answered with the modem's SMS text when it has one and the number is known.
 */
export function createCallRecorder(options: CallRecorderOptions): CallSink {
  const record = async (call: CallRecord) => {
    await options.addCall(call, () => options.events.record('call:missed', call));
    options.events.emit('call:missed', call);
    const text = options.settings(call.deviceId).callReplyText;
    if (text === null || call.number === undefined) return;
    await options.enqueue({
      message: { phoneNumbers: [call.number], textMessage: { text }, deviceId: call.deviceId },
      // The number comes from the network: national or short numbers are valid answers too.
      skipPhoneValidation: true,
      deviceActiveWithinHours: 0,
    });
  };
  return (call) => {
    record({ id: randomUUID(), ...call }).catch((error: unknown) =>
      options.logger.error('could not record an incoming call', { error: describeError(error) }),
    );
  };
}
