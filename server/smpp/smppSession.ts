import type { Socket } from 'node:net';
import type { Clock, TimerHandle } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import { decodePdu, encodePdu, PduFramer, responseBit, type SmppPdu } from './smppPdu.js';
import { SmppStatus } from './smppStatus.js';

export type BindMode = 'transmitter' | 'receiver' | 'transceiver';

/** What a session asks of the server; the protocol's state is the session's own. */
export interface SmppSessionHandlers {
  /** Checks the bind's system_id and password; resolves with the command_status to answer. */
  bind(login: { systemId: string; password: string; ip: string }): Promise<number>;
  /** submit_sm, query_sm, cancel_sm: the status and the response's fields. */
  request(pdu: SmppPdu, session: SmppSession): Promise<{ status: number; fields?: Record<string, unknown> }>;
  /** A receiver (or transceiver) is bound: held deliveries may go. */
  receiverBound(session: SmppSession): void;
  closed(session: SmppSession): void;
}

/** Our system_id in bind responses (§4.1.2). */
const ourSystemId = 'DesktopSMSGateway';

/** How long a deliver_sm waits for its deliver_sm_resp before it counts as not delivered. */
const responseTimeoutMs = 30_000;

const bindModes: Record<string, BindMode> = {
  bind_transmitter: 'transmitter',
  bind_receiver: 'receiver',
  bind_transceiver: 'transceiver',
};
/** Commands only a transmitter or transceiver may send (§2.3, Table 2-1). */
const transmitterCommands = new Set(['submit_sm', 'query_sm', 'cancel_sm']);

/**
 * One ESME's connection (SMPP 3.4 §2.3): open → bound as transmitter, receiver or transceiver →
 * unbound. We answer its requests, and send it deliver_sm when it may receive, each awaiting
 * its deliver_sm_resp by sequence number.
 */
export class SmppSession {
  private mode: BindMode | undefined;
  private boundAs = '';
  private nextSequence = 1;
  private closing = false;
  private readonly framer = new PduFramer();
  private readonly awaiting = new Map<number, { resolve: (status: number) => void; timer: TimerHandle }>();

  constructor(
    private readonly socket: Socket,
    private readonly handlers: SmppSessionHandlers,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error) => logger.debug('SMPP connection error', { error: error.message }));
    socket.on('close', () => this.closed());
  }

  /** The system_id it bound with ('' before the bind). */
  get systemId(): string {
    return this.boundAs;
  }

  get canReceive(): boolean {
    return !this.closing && (this.mode === 'receiver' || this.mode === 'transceiver');
  }

  /** Sends a deliver_sm; resolves with the ESME's command_status, or ESME_RSYSERR when it never answered. */
  deliver(fields: Record<string, unknown>): Promise<number> {
    const sequence = this.takeSequence();
    return new Promise<number>((resolve) => {
      const timer = this.clock.setTimer(() => {
        this.awaiting.delete(sequence);
        resolve(SmppStatus.ESME_RSYSERR);
      }, responseTimeoutMs);
      this.awaiting.set(sequence, { resolve, timer });
      this.send(encodePdu('deliver_sm', sequence, { fields }));
    });
  }

  close(): void {
    this.closing = true;
    this.socket.destroy();
  }

  private takeSequence(): number {
    const sequence = this.nextSequence;
    // §5.1.4: 0x00000001–0x7FFFFFFF, then around again.
    this.nextSequence = sequence >= 0x7fffffff ? 1 : sequence + 1;
    return sequence;
  }

  private send(buffer: Buffer): void {
    if (!this.socket.destroyed) this.socket.write(buffer);
  }

  private respond(pdu: SmppPdu, status: number, fields?: Record<string, unknown>): void {
    this.send(encodePdu(`${pdu.command}_resp`, pdu.sequence, { status, ...(fields ? { fields } : {}) }));
  }

  /** §4.3: generic_nack for a PDU we cannot take (unknown command, garbled body or length). */
  private nack(sequence: number, status: number): void {
    this.send(encodePdu('generic_nack', sequence, { status }));
  }

  private receive(chunk: Buffer): void {
    const { pdus, badLength } = this.framer.push(chunk);
    for (const buffer of pdus) this.handle(buffer);
    if (badLength !== undefined) {
      this.logger.warn('SMPP stream out of step: closing', { commandLength: badLength });
      this.nack(0, SmppStatus.ESME_RINVCMDLEN);
      this.socket.end();
    }
  }

  private handle(buffer: Buffer): void {
    let pdu: SmppPdu;
    try {
      pdu = decodePdu(buffer);
    } catch {
      this.nack(buffer.readUInt32BE(12), SmppStatus.ESME_RINVCMDLEN);
      return;
    }
    if (pdu.commandId & responseBit) {
      this.answered(pdu);
      return;
    }
    if (pdu.command === 'unknown') {
      this.nack(pdu.sequence, SmppStatus.ESME_RINVCMDID);
      return;
    }
    const mode = bindModes[pdu.command];
    if (mode) {
      void this.bind(pdu, mode);
      return;
    }
    switch (pdu.command) {
      case 'enquire_link':
        this.respond(pdu, SmppStatus.ESME_ROK);
        return;
      case 'unbind':
        this.respond(pdu, SmppStatus.ESME_ROK);
        this.mode = undefined;
        this.closing = true;
        this.socket.end();
        return;
      default:
        break;
    }
    if (!transmitterCommands.has(pdu.command)) {
      // outbind, deliver_sm, alert_notification… are the SMSC's to send, not an ESME's.
      this.nack(pdu.sequence, SmppStatus.ESME_RINVCMDID);
      return;
    }
    if (this.mode !== 'transmitter' && this.mode !== 'transceiver') {
      this.respond(pdu, SmppStatus.ESME_RINVBNDSTS);
      return;
    }
    this.handlers.request(pdu, this).then(
      ({ status, fields }) => this.respond(pdu, status, fields),
      (error: unknown) => {
        this.logger.error(`SMPP ${pdu.command} failed`, { error: String(error) });
        this.respond(pdu, SmppStatus.ESME_RSYSERR);
      },
    );
  }

  private async bind(pdu: SmppPdu, mode: BindMode): Promise<void> {
    if (this.mode) {
      this.respond(pdu, SmppStatus.ESME_RALYBND);
      return;
    }
    const systemId = String(pdu.fields.system_id ?? '');
    const status = await this.handlers.bind({
      systemId,
      password: String(pdu.fields.password ?? ''),
      ip: this.socket.remoteAddress ?? '',
    });
    if (status !== SmppStatus.ESME_ROK) {
      this.respond(pdu, status);
      return;
    }
    this.mode = mode;
    this.boundAs = systemId;
    this.respond(pdu, SmppStatus.ESME_ROK, { system_id: ourSystemId });
    this.logger.info(`SMPP ${systemId} bound as ${mode}`);
    if (this.canReceive) this.handlers.receiverBound(this);
  }

  private answered(pdu: SmppPdu): void {
    const waiter = this.awaiting.get(pdu.sequence);
    if (!waiter) return;
    this.awaiting.delete(pdu.sequence);
    waiter.timer.cancel();
    waiter.resolve(pdu.status);
  }

  private closed(): void {
    this.closing = true;
    for (const [sequence, waiter] of this.awaiting) {
      waiter.timer.cancel();
      waiter.resolve(SmppStatus.ESME_RSYSERR);
      this.awaiting.delete(sequence);
    }
    this.handlers.closed(this);
  }
}
