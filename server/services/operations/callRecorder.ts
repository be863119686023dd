import { randomUUID } from 'node:crypto';
import type { ModemOperationsSettings } from '../../contract/schemas/modemOperationsSchemas.js';
import type { CallSink } from '../../devices/pool/sinks.js';
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { CallRecord } from '../../store/modemRecords.js';
import type { EventBus } from '../events/eventBus.js';
import type { EnqueueRequest } from '../messages/messageService.js';

export interface CallRecorderOptions {
  /** Stores the call; `inCommit` runs inside the commit that stores it. */
  addCall(call: CallRecord, inCommit: () => void): Promise<void>;
  events: EventBus;
  logger: Logger;
}

/**
 * Every incoming call becomes a missed call: stored (GET /gateway/v1/calls) and announced
 * (`call:missed`); `answerMissedCalls` answers it.
 */
export function createCallRecorder(options: CallRecorderOptions): CallSink {
  const record = async (call: CallRecord) => {
    await options.addCall(call, () => options.events.record('call:missed', call));
    options.events.emit('call:missed', call);
  };
  return (call) => {
    record({ id: randomUUID(), ...call }).catch((error: unknown) =>
      options.logger.error('could not record an incoming call', { error: describeError(error) }),
    );
  };
}

/**
 * Answers each missed call with the modem's SMS text, when it has one and the number is known:
 * queued like any message, so the scheduler sends it when the modem is free. Returns the
 * unsubscribe function.
 */
export function answerMissedCalls(options: {
  events: EventBus;
  settings(deviceId: string): ModemOperationsSettings;
  enqueue(request: EnqueueRequest): Promise<unknown>;
  logger: Logger;
}): () => void {
  return options.events.on('call:missed', (call) => {
    const text = options.settings(call.deviceId).callReplyText;
    if (text === null || call.number === undefined) return;
    options
      .enqueue({
        message: { phoneNumbers: [call.number], textMessage: { text }, deviceId: call.deviceId },
        // The number comes from the network: national or short numbers are valid answers too.
        skipPhoneValidation: true,
        deviceActiveWithinHours: 0,
      })
      .catch((error: unknown) =>
        options.logger.error('could not answer a missed call', { error: describeError(error) }),
      );
  });
}
