import type { Clock } from '../../clock/clock.js';
import { gatewayCaller } from '../../contract/domain/caller.js';
import { type MessageRequest, messageRequestSchema } from '../../contract/schemas/messageSchemas.js';
import { ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { MessageService } from '../../services/messages/messageService.js';
import type { MessageRepository } from '../../store/repositories.js';
import type { MobileMessage } from './mobileApi.js';
import type { ReportTracker } from './reportTracker.js';
import { cancelledReportOf, isFinalState, refusalReportOf, stateReportOf } from './stateReport.js';

/**
 * Puts the messages `GET /message` returned into our own queue, with the server's id, so the
 * scheduler sends them like local ones. Fetching the same message again queues nothing: as the
 * app's `GatewayService.processMessage`, a message we already hold only has its state reported
 * again (the server still lists it as Pending because that report has not reached it).
 *
 * A message listed as Cancelling was cancelled on the server before it heard of our first
 * report: it is never queued, and one we hold is cancelled here unless a modem already has it
 * (then it goes on and its reports tell the server so) — the app's processMessage and its
 * MessageCancelledEvent handler (gateway/EventsReceiver.kt) do the same.
 */
export class MessageIntake {
  constructor(
    private readonly deps: {
      messages: MessageService;
      repository: MessageRepository;
      reports: ReportTracker;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  async take(fetched: readonly MobileMessage[]): Promise<void> {
    for (const message of fetched) {
      const held = this.deps.repository.get(message.id);
      if (held && held.source !== 'server') {
        this.deps.logger.warn('the private server sent a message whose id a local message has; ignored', {
          id: message.id,
        });
        continue;
      }
      if (message.state === 'Cancelling') {
        if (held) await this.cancelHeld(held.id);
        else await this.reportCancelled(message);
        continue;
      }
      if (held) {
        await this.reportAgain(held.id);
        continue;
      }
      const full = await this.enqueue(message);
      if (full) return;
    }
  }

  /**
   * The server cancelled message `id` (MessageCancelled). Returns false when the gateway does
   * not hold it: the caller fetches, and the server lists it as Cancelling.
   */
  async cancel(id: string): Promise<boolean> {
    const held = this.deps.repository.get(id);
    if (held?.source !== 'server') return false;
    await this.cancelHeld(id);
    return true;
  }

  /**
   * Cancels a message of the server's we hold. The change is reported through the message's
   * own events; when nothing changed (a modem has it, or it was already cancelled here), its
   * current state is reported again, for the server still waits for one.
   */
  private async cancelHeld(id: string): Promise<void> {
    try {
      await this.deps.messages.cancel(id, gatewayCaller);
    } catch (error) {
      if (!isGatewayError(error, ErrorCode.InvalidState)) throw error;
    }
    await this.reportAgain(id);
  }

  /** The current state once more, unless a report of it is already on its way. */
  private async reportAgain(id: string): Promise<void> {
    const held = this.deps.repository.get(id);
    if (!held || this.deps.reports.holdsReportFor(id)) return;
    await this.deps.reports.queue(stateReportOf(held), {
      final: isFinalState(held),
      force: true,
    });
  }

  private async reportCancelled(message: MobileMessage): Promise<void> {
    if (this.deps.reports.holdsReportFor(message.id)) return;
    this.deps.logger.info('a message the private server cancelled is not sent', { id: message.id });
    const at = this.deps.clock.now();
    await this.deps.reports.queue(cancelledReportOf(message.id, message.phoneNumbers ?? [], at), {
      final: true,
    });
  }

  /** Returns true when our queue is full: the rest stays on the server for the next fetch. */
  private async enqueue(message: MobileMessage): Promise<boolean> {
    const parsed = messageRequestSchema.safeParse(requestOf(message));
    if (!parsed.success) {
      await this.refuse(message, `the gateway cannot send this message: ${parsed.error.issues[0]?.message}`);
      return false;
    }
    try {
      // As the app does (SendParams skipPhoneValidation = true): the server already checked.
      await this.deps.messages.enqueue(
        { message: parsed.data, skipPhoneValidation: true, deviceActiveWithinHours: 0, source: 'server' },
        gatewayCaller,
      );
      return false;
    } catch (error) {
      if (isGatewayError(error, ErrorCode.QueueFull)) {
        this.deps.logger.warn('the queue is full: messages of the private server wait there', {});
        return true;
      }
      if (!isGatewayError(error)) throw error;
      await this.refuse(message, error.message);
      return false;
    }
  }

  private refuse(message: MobileMessage, error: string): Promise<void> {
    this.deps.logger.warn('a message of the private server was refused', { id: message.id, error });
    return this.deps.reports.queue(
      refusalReportOf(message.id, message.phoneNumbers ?? [], error, this.deps.clock.now()),
      { final: true },
    );
  }
}

/**
 * Our request shape from upstream's `MobileMessage` (converters/messages.go fills the
 * deprecated `message` beside `textMessage`, and may send both `ttl` and `validUntil`; the
 * absolute time wins, as the server computed it from the ttl).
 */
function requestOf(message: MobileMessage): Record<string, unknown> {
  const text = message.textMessage?.text ?? (message.dataMessage ? undefined : message.message);
  const request: Partial<Record<keyof MessageRequest, unknown>> = {
    id: message.id,
    phoneNumbers: message.phoneNumbers,
    isEncrypted: message.isEncrypted ?? false,
    simNumber: message.simNumber ?? null,
    withDeliveryReport: message.withDeliveryReport ?? true,
    priority: message.priority ?? 0,
    validUntil: message.validUntil ?? null,
    ttl: message.validUntil ? null : (message.ttl ?? null),
    scheduleAt: message.scheduleAt ?? null,
  };
  // An MMS's deprecated `message` is the empty string Go leaves: the MMS is its content.
  if (message.mmsMessage) request.mmsMessage = message.mmsMessage;
  else if (message.dataMessage) request.dataMessage = message.dataMessage;
  else if (text !== undefined) request.textMessage = { text };
  return request;
}
