import type { Socket } from 'node:net';
import type { Clock, TimerHandle } from '../../clock/clock.js';
import type { Caller } from '../../contract/domain/caller.js';
import type { Logger } from '../../logging/logger.js';
import { decodePdu, encodePdu, PduFramer, responseBit, type SmppPdu } from './smppPdu.js';
import { SmppStatus } from './smppStatus.js';

export type BindMode = 'transmitter' | 'receiver' | 'transceiver';

/** What a bind resolves to: the status to answer and, when it is ESME_ROK, who logged in. */
export type BindOutcome = { status: typeof SmppStatus.ESME_ROK; caller: Caller } | { status: number };

/** What a session asks of the server; the protocol's state is the session's own. */
export interface SmppSessionHandlers {
  /** Checks the bind's system_id and password. */
  bind(login: { systemId: string; password: string; ip: string }): Promise<BindOutcome>;
  /** submit_sm, query_sm, cancel_sm of a bound caller: the status and the response's fields. */
  request(
    pdu: SmppPdu,
    session: SmppSession,
    caller: Caller,
  ): Promise<{ status: number; fields?: Record<string, unknown> }>;
  /** The session may take deliveries now (it bound as a receiver, or room opened in its window). */
  canTakeDeliveries(session: SmppSession): void;
  closed(session: SmppSession): void;
}

/** The session's timers and bounds; RELIABILITY.md lists them as the SMPP server's limits. */
export interface SmppSessionLimits {
  /** An open connection must bind within this (SMPP 3.4 §7.2 session_init_timer). */
  bindTimeoutMs: number;
  /**
   * After this long without a PDU from a bound ESME we send enquire_link (§7.2
   * inactivity_timer / enquire_link_timer); one unanswered for `responseTimeoutMs` ends the session.
   */
  quietMs: number;
  /** How long a request of ours (enquire_link, unbind) waits for its response (§7.2 response_timer). */
  responseTimeoutMs: number;
  /** A PDU begun must arrive whole within this: a length that promises more than comes holds nothing. */
  frameTimeoutMs: number;
  /** deliver_sm sent and not yet answered, at most (the window, §2.7). */
  deliveryWindow: number;
  /** Responses queued for a client that does not read; past this we stop reading its requests. */
  maxQueuedBytes: number;
}

export const defaultSessionLimits: SmppSessionLimits = {
  bindTimeoutMs: 30_000,
  quietMs: 60_000,
  responseTimeoutMs: 30_000,
  frameTimeoutMs: 30_000,
  deliveryWindow: 10,
  maxQueuedBytes: 256 * 1024,
};

/**
 * Our system_id in bind responses (§4.1.2): a C-Octet String of at most 16 octets with its
 * NUL, which clients such as Kannel hold in 15 characters.
 */
export const ourSystemId = 'SMSGateway';

/** What `deliver` resolves to: the ESME's command_status, or `closed` when the session ended first. */
export type DeliveryAnswer = number | 'closed';

const bindModes: Record<string, BindMode> = {
  bind_transmitter: 'transmitter',
  bind_receiver: 'receiver',
  bind_transceiver: 'transceiver',
};
/** Commands only a transmitter or transceiver may send (§2.3, Table 2-1). */
const transmitterCommands = new Set(['submit_sm', 'query_sm', 'cancel_sm']);

/**
 * One ESME's connection (SMPP 3.4 §2.3): open → bound as transmitter, receiver or transceiver →
 * unbound. We answer its requests, and send it deliver_sm when it may receive, each awaiting its
 * deliver_sm_resp by sequence number for as long as the session lives: a deliver_sm is never
 * sent twice on one session; one left unanswered goes again only after a new bind.
 *
 * Nothing a client sends can end the process: every request's handling is caught and answered
 * ESME_RSYSERR, and a connection that does not keep the protocol's timing is closed.
 */
export class SmppSession {
  private mode: BindMode | undefined;
  private boundAs = '';
  private boundCaller: Caller | undefined;
  private binding = false;
  private nextSequence = 1;
  private closing = false;
  private readonly framer = new PduFramer();
  private readonly awaiting = new Map<number, (answer: DeliveryAnswer) => void>();
  private deliveriesOut = 0;
  private quietTimer: TimerHandle | undefined;
  private frameTimer: TimerHandle | undefined;
  /** An enquire_link of ours is unanswered: the next quiet spell ends the session. */
  private linkCheckOut = false;

  constructor(
    private readonly socket: Socket,
    private readonly handlers: SmppSessionHandlers,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly limits: SmppSessionLimits = defaultSessionLimits,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error) => logger.debug('SMPP connection error', { error: error.message }));
    socket.on('close', () => this.closed());
    socket.on('drain', () => socket.resume());
    this.listenQuietly(limits.bindTimeoutMs);
  }

  /** The system_id it bound with ('' before the bind): for logs and the receipts of old memos. */
  get systemId(): string {
    return this.boundAs;
  }

  /** Who bound ('' before the bind): the same person or app, whatever system_id it gave. */
  get caller(): Caller | undefined {
    return this.boundCaller;
  }

  /** Bound to receive, and with room in its window for another deliver_sm. */
  get canReceive(): boolean {
    return (
      !this.closing &&
      (this.mode === 'receiver' || this.mode === 'transceiver') &&
      this.deliveriesOut < this.limits.deliveryWindow
    );
  }

  /** Sends a deliver_sm; resolves with the ESME's command_status, or `closed` if the session ends first. */
  deliver(fields: Record<string, unknown>): Promise<DeliveryAnswer> {
    const sequence = this.takeSequence();
    this.deliveriesOut++;
    return new Promise<DeliveryAnswer>((resolve) => {
      this.awaiting.set(sequence, (answer) => {
        this.deliveriesOut--;
        resolve(answer);
        if (answer !== 'closed') this.handlers.canTakeDeliveries(this);
      });
      this.send(encodePdu('deliver_sm', sequence, { fields }));
    });
  }

  /** Ends the session as SMPP asks (§4.2): unbind, then close once answered or after `waitMs`. */
  unbindAndClose(waitMs: number): Promise<void> {
    if (this.closing || this.socket.destroyed) return Promise.resolve();
    this.closing = true;
    return new Promise<void>((resolve) => {
      const done = () => {
        timer.cancel();
        this.socket.destroy();
        resolve();
      };
      const timer = this.clock.setTimer(done, waitMs);
      this.socket.once('close', done);
      const sequence = this.takeSequence();
      this.awaiting.set(sequence, () => done());
      this.send(encodePdu('unbind', sequence));
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
    if (this.socket.destroyed) return;
    this.socket.write(buffer);
    // A client that sends and never reads (2M enquire_links) would grow our write queue without
    // end: stop reading its requests until it has read what we owe it.
    if (this.socket.writableLength > this.limits.maxQueuedBytes) this.socket.pause();
  }

  private respond(pdu: SmppPdu, status: number, fields?: Record<string, unknown>): void {
    let buffer: Buffer;
    try {
      buffer = encodePdu(`${pdu.command}_resp`, pdu.sequence, { status, ...(fields ? { fields } : {}) });
    } catch (error) {
      this.logger.error(`SMPP ${pdu.command}_resp could not be encoded`, { error: String(error) });
      buffer = encodePdu(`${pdu.command}_resp`, pdu.sequence, { status: SmppStatus.ESME_RSYSERR });
    }
    this.send(buffer);
  }

  /** §4.3: generic_nack for a PDU we cannot take (unknown command, garbled body or length). */
  private nack(sequence: number, status: number): void {
    this.send(encodePdu('generic_nack', sequence, { status }));
  }

  /**
   * (Re)starts the quiet timer: unbound, the session ends when it fires; bound, it asks
   * enquire_link once and ends if that too goes unanswered.
   */
  private listenQuietly(afterMs: number): void {
    this.quietTimer?.cancel();
    this.quietTimer = this.clock.setTimer(() => this.quiet(), afterMs);
  }

  private quiet(): void {
    if (this.closing) return;
    if (!this.mode) {
      this.logger.info('SMPP connection closed: no bind in time', { afterMs: this.limits.bindTimeoutMs });
      this.close();
      return;
    }
    if (this.linkCheckOut) {
      this.logger.warn(`SMPP ${this.boundAs} answers nothing: closing its session`);
      this.close();
      return;
    }
    this.linkCheckOut = true;
    this.send(encodePdu('enquire_link', this.takeSequence()));
    this.listenQuietly(this.limits.responseTimeoutMs);
  }

  private receive(chunk: Buffer): void {
    this.linkCheckOut = false;
    this.listenQuietly(this.mode ? this.limits.quietMs : this.limits.bindTimeoutMs);
    const { pdus, badLength } = this.framer.push(chunk);
    for (const buffer of pdus) {
      try {
        this.handle(buffer);
      } catch (error) {
        this.logger.error('SMPP PDU could not be handled', { error: String(error) });
        this.nack(buffer.readUInt32BE(12), SmppStatus.ESME_RSYSERR);
      }
    }
    if (badLength !== undefined) {
      this.logger.warn('SMPP stream out of step: closing', { commandLength: badLength });
      this.nack(0, SmppStatus.ESME_RINVCMDLEN);
      this.socket.end();
      return;
    }
    this.watchFrame();
  }

  /** A PDU begun must end within the frame timeout, or the connection is closed. */
  private watchFrame(): void {
    if (!this.framer.holdsPart) {
      this.frameTimer?.cancel();
      this.frameTimer = undefined;
      return;
    }
    this.frameTimer ??= this.clock.setTimer(() => {
      this.logger.warn('SMPP PDU never arrived whole: closing');
      this.close();
    }, this.limits.frameTimeoutMs);
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
      this.bind(pdu, mode).catch((error: unknown) => {
        this.logger.error('SMPP bind failed', { error: String(error) });
        this.respond(pdu, SmppStatus.ESME_RBINDFAIL);
      });
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
    const caller = this.boundCaller;
    if ((this.mode !== 'transmitter' && this.mode !== 'transceiver') || !caller) {
      this.respond(pdu, SmppStatus.ESME_RINVBNDSTS);
      return;
    }
    this.handlers
      .request(pdu, this, caller)
      .then(
        ({ status, fields }) => this.respond(pdu, status, fields),
        (error: unknown) => {
          this.logger.error(`SMPP ${pdu.command} failed`, { error: String(error) });
          this.respond(pdu, SmppStatus.ESME_RSYSERR);
        },
      )
      .catch((error: unknown) =>
        this.logger.error(`SMPP ${pdu.command}_resp failed`, { error: String(error) }),
      );
  }

  private async bind(pdu: SmppPdu, mode: BindMode): Promise<void> {
    if (this.mode || this.binding) {
      this.respond(pdu, SmppStatus.ESME_RALYBND);
      return;
    }
    this.binding = true;
    const systemId = String(pdu.fields.system_id ?? '');
    let outcome: BindOutcome;
    try {
      outcome = await this.handlers.bind({
        systemId,
        password: String(pdu.fields.password ?? ''),
        ip: this.socket.remoteAddress ?? '',
      });
    } finally {
      this.binding = false;
    }
    if (!('caller' in outcome)) {
      this.respond(pdu, outcome.status);
      return;
    }
    this.mode = mode;
    this.boundAs = systemId;
    this.boundCaller = outcome.caller;
    this.respond(pdu, SmppStatus.ESME_ROK, { system_id: ourSystemId });
    this.listenQuietly(this.limits.quietMs);
    this.logger.info(`SMPP ${systemId} bound as ${mode}`);
    if (this.canReceive) this.handlers.canTakeDeliveries(this);
  }

  private answered(pdu: SmppPdu): void {
    const waiter = this.awaiting.get(pdu.sequence);
    if (!waiter) return;
    this.awaiting.delete(pdu.sequence);
    waiter(pdu.status);
  }

  private closed(): void {
    this.closing = true;
    this.quietTimer?.cancel();
    this.frameTimer?.cancel();
    const waiters = [...this.awaiting.values()];
    this.awaiting.clear();
    for (const waiter of waiters) waiter('closed');
    this.handlers.closed(this);
  }
}
