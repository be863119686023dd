import { EventEmitter } from 'node:events';
import type { LowBalanceEvent, MissedCallEvent } from '../../contract/domain/device.js';
import type { IncomingBatchEvent, IncomingMessageEvent } from '../../contract/domain/incoming.js';
import type { MessageRecord } from '../../contract/domain/message.js';
import type { WebhookEvent } from '../../contract/domain/webhookEvents.js';
import type { LogRecord } from '../../logging/logger.js';

/**
 * In-process events the core raises. Webhooks, the live UI stream and stats listen here;
 * the producers never know who listens.
 */
export interface GatewayEvents {
  /** A message changed (any recipient state); `previous` is the record before the change. */
  'message:updated': { message: MessageRecord; previous: MessageRecord; previousState: MessageState };
  /** A message was accepted (durably stored in Pending). */
  'message:enqueued': { message: MessageRecord };
  /** An SMS arrived and was stored for the first time. */
  'message:received': IncomingMessageEvent;
  /** A stored SMS re-announced for webhooks only (inbox export, refresh with triggerWebhooks). */
  'inbox:replayed': IncomingMessageEvent;
  /** Stored messages of one device and type re-announced as one batch webhook, oldest first. */
  'inbox:batchReplayed': IncomingBatchEvent;
  'device:updated': { deviceId: string };
  /** Port discovery was refused a port it found, or such a port opened or went away. */
  'ports:refused-changed': Record<string, never>;
  /** A voice call rang on a modem and was recorded as missed (hung up or not). */
  'call:missed': MissedCallEvent;
  /** A scheduled balance check found the balance below the modem's threshold. */
  'modem:low-balance': LowBalanceEvent;
  /** Sending was paused or resumed (UI, API, desktop tray). */
  'sending:paused': { paused: boolean };
  log: LogRecord;
  /** A fact of our own extensions, published as a webhook under our own event name. */
  'gateway:fact': WebhookEvent;
}

type MessageState = MessageRecord['state'];

/**
 * Facts raised inside the commit that stores them (`EventBus.record`), so that what reports
 * them (the webhook outbox) is written in the same commit: both durable, or neither.
 */
export type RecordedFacts = Pick<
  GatewayEvents,
  'message:updated' | 'message:received' | 'call:missed' | 'modem:low-balance' | 'gateway:fact'
>;

export class EventBus {
  private readonly emitter = new EventEmitter();
  private readonly recorders = new EventEmitter();

  constructor() {
    // Many SSE clients and webhook listeners may subscribe at once.
    this.emitter.setMaxListeners(0);
  }

  /**
   * Raises a fact while the batch that stores it is still open: each listener adds its own
   * writes to that batch, synchronously, and must neither wait nor do I/O. `emit` follows once
   * the fact is durable, for everyone else.
   */
  record<K extends keyof RecordedFacts>(name: K, payload: RecordedFacts[K]): void {
    this.recorders.emit(name, payload);
  }

  onRecord<K extends keyof RecordedFacts>(
    name: K,
    listener: (payload: RecordedFacts[K]) => void,
  ): () => void {
    this.recorders.on(name, listener);
    return () => this.recorders.off(name, listener);
  }

  emit<K extends keyof GatewayEvents>(name: K, payload: GatewayEvents[K]): void {
    this.emitter.emit(name, payload);
  }

  on<K extends keyof GatewayEvents>(name: K, listener: (payload: GatewayEvents[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
