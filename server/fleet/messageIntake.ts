import type { Clock } from '../clock/clock.js';
import { ErrorCode, isGatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import type { MessageService } from '../messages/messageService.js';
import type { MessageRepository } from '../store/repositories.js';
import { type MessageRequest, messageRequestSchema } from '../validation/messageSchemas.js';
import type { MobileMessage } from './mobileApi.js';
import type { ReportOutbox } from './reportOutbox.js';
import { isFinalState, refusalReportOf, stateReportOf } from './stateReport.js';

/**
 * Puts the messages `GET /message` returned into our own queue, with the server's id, so the
 * scheduler sends them like local ones. Fetching the same message again queues nothing: as the
 * app's `GatewayService.processMessage`, a message we already hold only has its state reported
 * again (the server still lists it as Pending because that report has not reached it).
 */
export class MessageIntake {
  constructor(
    private readonly deps: {
      messages: MessageService;
      repository: MessageRepository;
      outbox: ReportOutbox;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  async take(fetched: readonly MobileMessage[]): Promise<void> {
    for (const message of fetched) {
      const held = this.deps.repository.get(message.id);
      if (held) {
        if (held.source !== 'server') {
          this.deps.logger.warn('the private server sent a message whose id a local message has; ignored', {
            id: message.id,
          });
        } else if (!this.deps.outbox.holdsReportFor(held.id)) {
          const report = stateReportOf(held);
          await this.deps.outbox.queue(report, this.deps.clock.now(), {
            final: isFinalState(held),
            force: true,
          });
        }
        continue;
      }
      const full = await this.enqueue(message);
      if (full) return;
    }
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
      await this.deps.messages.enqueue({
        message: parsed.data,
        skipPhoneValidation: true,
        deviceActiveWithinHours: 0,
        source: 'server',
      });
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
    return this.deps.outbox.queue(
      refusalReportOf(message.id, message.phoneNumbers ?? [], error, this.deps.clock.now()),
      this.deps.clock.now(),
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
  if (message.dataMessage) request.dataMessage = message.dataMessage;
  else if (text !== undefined) request.textMessage = { text };
  return request;
}
