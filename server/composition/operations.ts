import type { ModemPool } from '../devices/pool/modemPool.js';
import type { CallSink } from '../devices/pool/sinks.js';
import type { EnqueueRequest } from '../services/messages/messageService.js';
import { BalanceWatch } from '../services/operations/balanceWatch.js';
import { answerMissedCalls, createCallRecorder } from '../services/operations/callRecorder.js';
import {
  type ModemOperationsDocument,
  ModemOperationsSettingsStore,
} from '../services/operations/modemOperationsSettings.js';
import { recordSignalHistory } from '../services/operations/signalRecorder.js';
import { UssdSessions } from '../services/operations/ussdSessions.js';
import { PatternMatcher } from '../services/patterns/patternMatcher.js';
import type { CompositionContext } from './context.js';

export interface ModemOperationSettings {
  /** Per-modem settings and the last balance (`modem-operations.json`). */
  settings: ModemOperationsSettingsStore;
  /** Stores a missed call and raises `call:missed` (answered by `answerMissedCalls`). */
  recordCall: CallSink;
}

/**
 * (docs/modems.md "Modem operations"), before the pool, which asks these per modem: whether to
 * reject calls, the last balance, where a call goes.
 */
export async function openModemOperations(context: CompositionContext): Promise<ModemOperationSettings> {
  const { storage } = context;
  const settings = new ModemOperationsSettingsStore(
    await storage.openDocument<ModemOperationsDocument>('modem-operations', { devices: {} }),
  );
  const recordCall = createCallRecorder({
    addCall: (call, inCommit) => storage.modemRecords.addCall(call, inCommit),
    events: context.events,
    logger: context.logger.child('calls'),
  });
  return { settings, recordCall };
}

export interface ModemOperations {
  ussdSessions: UssdSessions;
  balanceWatch: BalanceWatch;
}

/**
 * Step 5c, over the pool before it starts: the signal history, USSD sessions and the balance
 * schedule (its timer starts with `balanceWatch.start()`, once the scheduler runs).
 */
export function composeModemOperations(
  context: CompositionContext,
  deps: {
    pool: ModemPool;
    settings: ModemOperationsSettingsStore;
    /** Queues a missed call's SMS answer like any message. */
    enqueue: (request: EnqueueRequest) => Promise<unknown>;
  },
): ModemOperations {
  const { storage, events, clock } = context;
  const { pool } = deps;
  context.stops.add(
    answerMissedCalls({
      events,
      settings: (deviceId) => deps.settings.settings(deviceId),
      enqueue: deps.enqueue,
      logger: context.logger.child('calls'),
    }),
  );
  context.stops.add(
    recordSignalHistory({
      devices: pool,
      clock,
      addSample: (deviceId, sample, keepFrom) =>
        storage.modemRecords.addSignalSample(deviceId, sample, keepFrom),
    }),
  );
  const ussdSessions = new UssdSessions(pool, clock);
  const logger = context.logger.child('balance');
  // A thread of its own, not the rules': a flood of incoming SMS cannot delay the balance check.
  const patterns = new PatternMatcher({ name: 'balance pattern', logger });
  context.stops.add(() => patterns.close());
  const balanceWatch = new BalanceWatch({
    settings: deps.settings,
    sessions: ussdSessions,
    patterns,
    facts: context.facts,
    clock,
    logger,
    onReading: (deviceId) => events.emit('device:updated', { deviceId }),
  });
  return { ussdSessions, balanceWatch };
}
