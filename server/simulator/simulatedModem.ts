/**
 * The built-in simulated GSM modem: what `npm start` runs when no real modem is found, what
 * `--simulate` runs, and what integration tests and benchmarks drive. It answers AT commands
 * (V.250, TS 27.007, TS 27.005 in PDU mode) on the device end of a Transport, holds SMS in a
 * simulated SIM store, and plays the network: it accepts sends, returns status reports after
 * a delay, and delivers injected incoming messages.
 *
 * Tests steer it (failSends, setSilent, injectIncoming…) and assert on what it received
 * (`commands`, `accepted`), in the manner of zwave-js's MockController.
 */
import type { Clock, TimerHandle } from '../clock/clock.js';
import type { RadioTechnology } from '../domain/device.js';
import { describeError, ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import type { RegistrationDomain } from '../modem/networkState.js';
import type { DecodedSubmit } from '../pdu/index.js';
import type { Transport } from '../transport/transport.js';
import { type AtCommand, parseCommandLine, splitArguments } from './atCommandLine.js';
import { buildCommandTable, commandListing } from './commandTable.js';
import { type CommandContext, type CommandReply, plainError, type RadioState } from './commandTypes.js';
import { junkLines } from './lineNoise.js';
import { MessageStatus, MessageStorage } from './messageStorage.js';
import { type ModemIdentity, resolveIdentity } from './modemIdentity.js';
import { ModemInput, type PduBody } from './modemInput.js';
import {
  factoryProfile,
  type ModemProfile,
  type ProfileDefaults,
  type StatusReportRouting,
  storedProfile,
} from './modemProfile.js';
import { isRegistered, registrationLine } from './networkCommands.js';
import { deliverParts, type IncomingMessage, statusReportFor } from './networkPdus.js';
import { type AtFailure, CmsCode, failureLine, frameResponse } from './resultCodes.js';
import { SimCard } from './simCard.js';
import {
  type HangUpCommand,
  type RingOptions,
  SimulatedTelephony,
  type UssdForm,
  type UssdService,
} from './simulatedTelephony.js';
import { checkSubmittedPdu } from './submittedPdu.js';

export type { IncomingMessage } from './networkPdus.js';

export interface SimulatedModemOptions {
  clock: Clock;
  logger: Logger;
  identity?: Partial<ModemIdentity>;
  /** The SIM starts locked (+CPIN: SIM PIN) until AT+CPIN="<pin>"; 3 wrong tries → SIM PUK. */
  simPin?: string;
  /** Delay before each reply, ms (default 0). */
  replyDelayMs?: number;
  /** Time the network takes to accept an AT+CMGS, ms (default 0). */
  sendDelayMs?: number;
  /** Delay before the status report of a send that requested one, ms (default 1000). */
  statusReportDelayMs?: number;
  /** Direct +CDS or stored +CDSI (default 'cdsi'); AT+CNMI <ds> overrides it once set. */
  statusReportMode?: StatusReportRouting;
  /** Initial ATE state (default true, like real modems). */
  echo?: boolean;
  /** SIM message slots (default 30). */
  storageSize?: number;
  /**
   * Where status reports are stored: 'SM' with the messages (default), or a memory of their
   * own, 'SR', as Huawei, Quectel and SIMCom modems keep them (read with AT+CPMS="SR").
   */
  statusReportMemory?: 'SM' | 'SR';
  /** What the modem can use (AT+WS46). Default 2G and 3G, a classic USB stick. */
  radioTechnologies?: RadioTechnology[];
  /**
   * What it is attached with (default the newest it can use). '4G' registers in +CEREG only,
   * as an LTE attach without circuit-switched fallback does; +CREG and +CGREG then say 0.
   */
  attachedTechnology?: RadioTechnology;
  /**
   * Where the indications (+CMTI, +CDSI, +CMT, +CDS) go. Default: the command port. A second
   * port models a multi-port modem that routes them to another USB interface (Huawei's modem
   * port vs PCUI, Quectel's usbmodem vs usbat) until told otherwise.
   */
  indicationPort?: Transport;
  /**
   * Most entries kept in `commands` and `accepted` (default: all). A simulated modem that runs
   * for days under `npm start` should set one, or its history grows without end.
   */
  historyLimit?: number;
  /** How USSD strings are written (default 'text'; Huawei 'packed-hex'; 'ucs2' answers in DCS 72). */
  ussdForm?: UssdForm;
  /** Between the OK of AT+CUSD and the network's +CUSD answer, ms (default 200). */
  ussdDelayMs?: number;
  /** The command that ends a voice call here (default 'ATH'; the other answers OK and does nothing). */
  hangUp?: HangUpCommand;
}

export interface AcceptedPdu {
  /** The PDU as written after the prompt, upper-case, SMSC field included. */
  hex: string;
  decoded: DecodedSubmit;
  /** The reference this modem answered with (+CMGS: <mr>). */
  messageReference: number;
  acceptedAt: number;
}

export interface InjectOptions {
  /**
   * 'cmt' routes each part directly (+CMT), 'cmti' stores it and announces it (+CMTI). Default:
   * what AT+CNMI <mt> asks for (2 → +CMT, 1 or 3 → +CMTI, 0 → stored without a word).
   */
  delivery?: 'cmti' | 'cmt';
  /**
   * Zero-based part indexes in the order the network delivers them. Leaving one out simulates
   * a lost part; repeating one simulates a duplicate.
   */
  partOrder?: number[];
}

interface PendingSend {
  tpduLength: number;
}

interface InjectedFailure {
  code: number;
  remaining?: number;
}

const DEFAULT_STATUS_REPORT_DELAY_MS = 1000;
const DEFAULT_STORAGE_SIZE = 30;

export class SimulatedModem {
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly identity: ModemIdentity;
  private readonly sim: SimCard;
  private readonly storage: MessageStorage;
  private readonly memories = new Map<string, MessageStorage>();
  /** AT+CPMS <mem1>. */
  private readMemory: MessageStorage;
  private readonly radio: RadioState;
  /** Without a second port every indication comes on the command port anyway. */
  private readonly urcRouting = { toCommandPort: false, quectelPort: 'usbmodem' };
  private readonly profileDefaults: ProfileDefaults;
  private profile: ModemProfile;
  private readonly table = buildCommandTable();
  private readonly telephony: SimulatedTelephony;
  private readonly context: CommandContext;
  private readonly input = new ModemInput();
  private readonly receivedCommands: string[] = [];
  private readonly acceptedPdus: AcceptedPdu[] = [];
  private readonly timers = new Set<TimerHandle>();
  /** Reply and send delays in progress: halting releases them so the input loop can end. */
  private readonly pauses = new Set<{ timer: TimerHandle; release: () => void }>();
  private readonly unsubscribers: (() => void)[] = [];
  private running = false;
  private openedPort = false;
  private openedIndicationPort = false;
  private processing = false;
  private pendingSend?: PendingSend;
  private injectedFailure?: InjectedFailure;
  private reportStatus = 0x00;
  private silent = false;
  private garbage = false;
  private noiseSeed = 0;
  private nextMessageReference = 0;
  private nextConcatReference = 0;
  /** Indications held while AT+CNMI <mode> is 0 (TS 27.005 §3.4.1: buffered in the TA). */
  private bufferedIndications: string[][] = [];
  private acknowledgementDue = false;
  /** Work a command asked for that must follow its final result code. */
  private afterReply: (() => void)[] = [];
  private announcedRegistration: number;

  constructor(
    private readonly port: Transport,
    private readonly options: SimulatedModemOptions,
  ) {
    checkOptions(options);
    const technologies = options.radioTechnologies ?? ['2G', '3G'];
    this.radio = {
      registration: 1,
      rssi: 20,
      radioOn: true,
      technologies,
      attached: options.attachedTechnology ?? technologies.at(-1) ?? '3G',
      smsService: 1,
    };
    this.clock = options.clock;
    this.logger = options.logger.child('simulator');
    this.identity = resolveIdentity(options.identity);
    this.sim = new SimCard(options.simPin);
    this.storage = new MessageStorage(options.storageSize ?? DEFAULT_STORAGE_SIZE);
    this.memories.set('SM', this.storage);
    if (options.statusReportMemory === 'SR') {
      this.memories.set('SR', new MessageStorage(options.storageSize ?? DEFAULT_STORAGE_SIZE));
    }
    this.readMemory = this.storage;
    this.profileDefaults = { echo: options.echo ?? true, statusReports: options.statusReportMode ?? 'cdsi' };
    this.profile = storedProfile(this.profileDefaults);
    this.telephony = new SimulatedTelephony({
      clock: this.clock,
      ussdForm: options.ussdForm,
      ussdDelayMs: options.ussdDelayMs,
      hangUp: options.hangUp,
      emit: (lines) => this.write(frameResponse(lines)),
      callerId: () => this.profile.callerId === 1,
    });
    this.context = this.buildContext();
    this.announcedRegistration = this.registrationStatus();
  }

  /** Every PDU accepted by AT+CMGS, in order. */
  get accepted(): readonly AcceptedPdu[] {
    return this.acceptedPdus;
  }

  /** Every command line received (trimmed, without terminator), answered or not. */
  get commands(): readonly string[] {
    return this.receivedCommands;
  }

  async start(): Promise<void> {
    if (this.running) return;
    if (!this.port.isOpen) {
      await this.port.open();
      this.openedPort = true;
    }
    this.unsubscribers.push(
      this.port.onData((chunk) => {
        this.input.push(chunk);
        void this.pump();
      }),
      this.port.onClose(() => this.halt()),
    );
    const indicationPort = this.options.indicationPort;
    if (indicationPort && !indicationPort.isOpen) {
      await indicationPort.open();
      this.openedIndicationPort = true;
    }
    this.running = true;
    this.logger.info('simulated modem started', { port: this.port.description });
    void this.pump();
  }

  async stop(): Promise<void> {
    this.halt();
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    if (this.openedPort) {
      this.openedPort = false;
      await this.port.close();
    }
    if (this.openedIndicationPort) {
      this.openedIndicationPort = false;
      await this.options.indicationPort?.close();
    }
  }

  /** The next sends (all until cleared, or `count`) answer +CMS ERROR: <cmsCode> after the send delay. */
  failSends(cmsCode: number, count?: number): void {
    if (count !== undefined && (!Number.isInteger(count) || count < 1)) {
      throw new GatewayError(ErrorCode.ValidationFailed, 'failSends count must be a positive integer', {
        field: 'count',
      });
    }
    this.injectedFailure = count === undefined ? { code: cmsCode } : { code: cmsCode, remaining: count };
  }

  clearFailures(): void {
    this.injectedFailure = undefined;
  }

  /** Delivers a message from `sender` through the simulated network, in as many parts as it needs. */
  injectIncoming(message: IncomingMessage, options: InjectOptions = {}): void {
    const parts = deliverParts(message, this.identity.smsc, this.nextConcatReference, this.clock.now());
    this.nextConcatReference = (this.nextConcatReference + 1) % 256;
    const order = options.partOrder ?? parts.map((_part, index) => index);
    const route = options.delivery ?? this.routeForNewMessages();
    const chosen = order.map((index) => {
      const part = parts[index];
      if (!part) {
        throw new GatewayError(
          ErrorCode.ValidationFailed,
          `part ${index} does not exist (${parts.length} parts)`,
          {
            field: 'partOrder',
          },
        );
      }
      return part;
    });
    for (const part of chosen) {
      if (route === 'cmt') {
        // TS 27.005 §3.4.1 <mt>=2, PDU mode: +CMT: [<alpha>],<length> and the PDU on the next line.
        this.indicate([`+CMT: ,${part.tpduLength}`, part.hex]);
        this.expectAcknowledgement();
        continue;
      }
      const index = this.storage.store(part.hex, part.tpduLength, MessageStatus.ReceivedUnread);
      if (index === undefined) {
        this.logger.warn('SIM message storage is full: the network keeps the incoming part', {
          sender: message.sender,
        });
        continue;
      }
      if (route === 'cmti') this.indicate([`+CMTI: "SM",${index}`]);
    }
  }

  /** TP-Status of future status reports (TS 23.040 §9.2.3.15; default 0x00, delivered). */
  setStatusReportOutcome(status: number): void {
    if (!Number.isInteger(status) || status < 0 || status > 0xff) {
      throw new GatewayError(ErrorCode.ValidationFailed, 'TP-Status is one octet', { field: 'status' });
    }
    this.reportStatus = status;
  }

  /** A hung modem: it neither answers, echoes, nor sends unsolicited codes; input is dropped. */
  setSilent(silent: boolean): void {
    this.silent = silent;
  }

  /** Every command is answered with junk lines (and no result code) until turned off. */
  setGarbage(enabled: boolean): void {
    this.garbage = enabled;
  }

  /** Sends any unsolicited line, e.g. `+ZDONR: ...`, `^RSSI: 12`, `RING`. */
  emitUnsolicited(line: string): void {
    this.write(frameResponse([line]));
  }

  /** Adds or replaces a USSD service of the simulated network (see `defaultUssdServices`). */
  setUssdService(code: string, service: UssdService): void {
    this.telephony.setUssdService(code, service);
  }

  /** A voice call from `number` rings until hung up or the caller gives up. */
  ringIncomingCall(number: string, options?: RingOptions): void {
    this.telephony.ring(number, options);
  }

  /** True while a call rings. */
  get isRinging(): boolean {
    return this.telephony.isRinging;
  }

  /** The hang-up commands that ended calls, in order. */
  get callsEnded(): readonly HangUpCommand[] {
    return this.telephony.callsEnded;
  }

  /** Adds a message to the SIM store without a word to the host, as a full SIM fills up. */
  storeIncoming(message: IncomingMessage): void {
    for (const part of deliverParts(
      message,
      this.identity.smsc,
      this.nextConcatReference,
      this.clock.now(),
    )) {
      this.storage.store(part.hex, part.tpduLength, MessageStatus.ReceivedUnread);
    }
    this.nextConcatReference = (this.nextConcatReference + 1) % 256;
  }

  /** Messages in the SIM store now. */
  get storedOnSim(): number {
    return this.storage.used;
  }

  /** The network's registration <stat> (TS 27.007 §7.2), announced by +CREG/+CGREG when enabled. */
  setRegistration(stat: number): void {
    if (!Number.isInteger(stat) || stat < 0 || stat > 5) {
      throw new GatewayError(ErrorCode.ValidationFailed, 'registration <stat> is 0..5', { field: 'stat' });
    }
    this.radio.registration = stat;
    this.announceRegistration();
  }

  /** +CSQ <rssi>: 0..31, or 99 for unknown. */
  setSignal(rssi: number): void {
    if (!Number.isInteger(rssi) || ((rssi < 0 || rssi > 31) && rssi !== 99)) {
      throw new GatewayError(ErrorCode.ValidationFailed, '<rssi> is 0..31 or 99', { field: 'rssi' });
    }
    this.radio.rssi = rssi;
  }

  /** Like a power cut: pending reports, delays, a half-typed PDU and unread input are gone. */
  private halt(): void {
    this.running = false;
    for (const timer of this.timers) timer.cancel();
    this.timers.clear();
    for (const pause of this.pauses) {
      pause.timer.cancel();
      pause.release();
    }
    this.pauses.clear();
    this.pendingSend = undefined;
    this.input.clear();
    this.telephony.halt();
  }

  /** Works through complete input one command (or PDU) at a time, in arrival order. */
  private async pump(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.running) {
        const send = this.pendingSend;
        if (send) {
          const body = this.input.takePduBody();
          if (!body) break;
          this.pendingSend = undefined;
          await this.finishSend(send, body);
          continue;
        }
        const line = this.input.takeLine();
        if (line === undefined) break;
        await this.handleLine(line);
      }
    } catch (error) {
      this.logger.error('simulated modem failed on its input', { error: describeError(error) });
    } finally {
      this.processing = false;
    }
  }

  private async handleLine(rawLine: string): Promise<void> {
    // V.250 §5.2.1: everything before "AT" is ignored (an ESC a host sent in command mode, noise).
    const start = rawLine.search(/at/i);
    const line = (start < 0 ? rawLine : rawLine.slice(start)).trim();
    this.remember(this.receivedCommands, line);
    if (this.logger.isEnabled('DEBUG')) this.logger.debug('« command', { line });
    if (this.silent) return;
    if (this.garbage) {
      this.write(frameResponse(junkLines(this.noiseSeed++)));
      return;
    }
    // A line without "AT" gets no answer.
    if (start < 0) return;
    if (this.profile.echo) this.write(`${line}\r`);
    const commands = parseCommandLine(line);
    if (!commands) {
      await this.respond([], { kind: 'error' });
      return;
    }
    const lines: string[] = [];
    for (const command of commands) {
      const reply = this.execute(command);
      if (reply.kind === 'failed') {
        await this.respond(lines, reply.failure);
        this.finishCommandLine();
        return;
      }
      if (reply.kind === 'prompt') {
        // TS 27.005 §3.5.1: the prompt is <CR><LF><greater_than><space>, with no line end after it.
        await this.pause(this.options.replyDelayMs);
        this.write(`${frameResponse(lines)}\r\n> `);
        this.pendingSend = { tpduLength: reply.tpduLength };
        return;
      }
      lines.push(...reply.lines);
    }
    await this.respond(lines);
    this.finishCommandLine();
  }

  private finishCommandLine(): void {
    for (const work of this.afterReply.splice(0)) work();
    this.announceRegistration();
  }

  private execute(command: AtCommand): CommandReply {
    const handler = this.table.get(command.name)?.[command.form];
    if (!handler) return plainError();
    return handler(this.context, command.form === 'set' ? splitArguments(command.args) : [], command);
  }

  private async finishSend(send: PendingSend, body: PduBody): Promise<void> {
    if (this.silent) return;
    // TS 27.005 §3.5.1: ESC quits without sending; modems confirm with OK.
    if (body.kind === 'aborted') {
      await this.respond([]);
      return;
    }
    const check = checkSubmittedPdu(body.hex, send.tpduLength);
    if (!check.ok) {
      this.logger.info('rejected a submitted PDU', { reason: check.reason });
      await this.respond([], { kind: 'cms', code: CmsCode.InvalidPduModeParameter });
      return;
    }
    await this.pause(this.options.sendDelayMs);
    const failureCode = this.takeInjectedFailure();
    if (failureCode !== undefined) {
      await this.respond([], { kind: 'cms', code: failureCode });
      return;
    }
    if (!isRegistered(this.registrationStatus())) {
      await this.respond([], { kind: 'cms', code: CmsCode.NoNetworkService });
      return;
    }
    const messageReference = this.nextMessageReference;
    // TS 23.040 §9.2.3.6: TP-MR is one octet and wraps from 255 to 0.
    this.nextMessageReference = (messageReference + 1) % 256;
    const accepted: AcceptedPdu = {
      hex: body.hex.toUpperCase(),
      decoded: check.decoded,
      messageReference,
      acceptedAt: this.clock.now(),
    };
    this.remember(this.acceptedPdus, accepted);
    this.logger.debug('accepted a send', {
      recipient: check.decoded.recipient.number,
      messageReference,
      statusReportRequested: check.decoded.statusReportRequested,
    });
    await this.respond([`+CMGS: ${messageReference}`]);
    if (check.decoded.statusReportRequested) this.scheduleStatusReport(accepted);
  }

  private takeInjectedFailure(): number | undefined {
    const failure = this.injectedFailure;
    if (!failure) return undefined;
    if (failure.remaining !== undefined) {
      failure.remaining--;
      if (failure.remaining <= 0) this.injectedFailure = undefined;
    }
    return failure.code;
  }

  private scheduleStatusReport(send: AcceptedPdu): void {
    const handle = this.clock.setTimer(() => {
      this.timers.delete(handle);
      this.deliverStatusReport(send);
    }, this.options.statusReportDelayMs ?? DEFAULT_STATUS_REPORT_DELAY_MS);
    this.timers.add(handle);
  }

  private deliverStatusReport(send: AcceptedPdu): void {
    if (!this.running) return;
    const report = statusReportFor(send, this.reportStatus, this.identity.smsc, this.clock.now());
    // TS 27.005 §3.4.1 <ds>: 1 routes the report directly (+CDS), 2 stores it and indicates
    // where (+CDSI), 0 routes nothing (the report is only stored).
    const routing = this.profile.indications.ds;
    if (routing === 1) {
      this.indicate([`+CDS: ${report.tpduLength}`, report.hex]);
      this.expectAcknowledgement();
      return;
    }
    const memory = this.options.statusReportMemory ?? 'SM';
    const index = this.memories
      .get(memory)
      ?.store(report.hex, report.tpduLength, MessageStatus.ReceivedUnread);
    if (index === undefined) {
      this.logger.warn('message storage is full: a status report was lost', {
        memory,
        messageReference: send.messageReference,
      });
      return;
    }
    if (routing === 2) this.indicate([`+CDSI: "${memory}",${index}`]);
  }

  private routeForNewMessages(): 'cmt' | 'cmti' | 'store' {
    const { mt } = this.profile.indications;
    if (mt === 2) return 'cmt';
    return mt === 0 ? 'store' : 'cmti';
  }

  /** SMS indications obey AT+CNMI <mode>: 0 holds them in the TA until the mode changes. */
  private indicate(lines: string[]): void {
    if (this.profile.indications.mode === 0) this.bufferedIndications.push(lines);
    else this.write(frameResponse(lines), this.indicationTarget());
  }

  private indicationSettingsChanged(): void {
    const { mode, bfr } = this.profile.indications;
    if (mode === 0) return;
    // TS 27.005 §3.4.1 <bfr>: 0 flushes the buffered codes to the TE (after the OK of the
    // AT+CNMI that enabled them), 1 clears them.
    const buffered = this.bufferedIndications.splice(0);
    if (bfr === 0) this.afterReply.push(() => this.writeAll(buffered));
  }

  private writeAll(indications: readonly string[][]): void {
    for (const lines of indications) this.write(frameResponse(lines), this.indicationTarget());
  }

  private indicationTarget(): Transport {
    const other = this.options.indicationPort;
    return other && !this.urcRouting.toCommandPort ? other : this.port;
  }

  /** TS 27.005 §3.4.4: with AT+CSMS=1 every +CMT and +CDS must be acknowledged by AT+CNMA. */
  private expectAcknowledgement(): void {
    if (this.profile.messageService === 1) this.acknowledgementDue = true;
  }

  private registrationStatus(): number {
    return this.sim.isReady && this.radio.radioOn ? this.radio.registration : 0;
  }

  private registrationIn(domain: RegistrationDomain): number {
    const onLte = this.radio.attached === '4G' || this.radio.attached === '5G';
    return onLte === (domain === '+CEREG') ? this.registrationStatus() : 0;
  }

  private announceRegistration(): void {
    const stat = this.registrationStatus();
    if (stat === this.announcedRegistration) return;
    this.announcedRegistration = stat;
    const { registrationReports, packetRegistrationReports, epsRegistrationReports } = this.profile;
    const announce = (domain: RegistrationDomain, reports: number) => {
      if (reports > 0)
        this.write(frameResponse([registrationLine(domain, reports, this.registrationIn(domain), false)]));
    };
    announce('+CREG', registrationReports);
    announce('+CGREG', packetRegistrationReports);
    if (this.radio.technologies.includes('4G')) announce('+CEREG', epsRegistrationReports);
  }

  private async respond(lines: readonly string[], failure?: AtFailure): Promise<void> {
    await this.pause(this.options.replyDelayMs);
    const final = failure ? failureLine(failure, this.profile.errorVerbosity) : 'OK';
    this.write(frameResponse(lines) + frameResponse([final]));
  }

  private pause(delayMs: number | undefined): Promise<void> {
    if (delayMs === undefined || delayMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const pause = {
        timer: this.clock.setTimer(() => {
          this.pauses.delete(pause);
          resolve();
        }, delayMs),
        release: resolve,
      };
      this.pauses.add(pause);
    });
  }

  private remember<Entry>(history: Entry[], entry: Entry): void {
    history.push(entry);
    const limit = this.options.historyLimit;
    if (limit !== undefined && history.length > limit) history.splice(0, history.length - limit);
  }

  private write(text: string, port: Transport = this.port): void {
    if (!this.running || this.silent || text === '' || !port.isOpen) return;
    if (this.logger.isEnabled('DEBUG')) this.logger.debug('» reply', { text, port: port.description });
    port.write(text).catch((error: unknown) => {
      this.logger.warn('simulated modem could not write', { error: describeError(error) });
    });
  }

  private buildContext(): CommandContext {
    const modem = this;
    return {
      identity: this.identity,
      sim: this.sim,
      get storage() {
        return modem.readMemory;
      },
      memories: this.memories,
      urcRouting: this.urcRouting,
      selectMemory: (name) => {
        const memory = this.memories.get(name);
        if (memory) this.readMemory = memory;
        return memory !== undefined;
      },
      radio: this.radio,
      get profile() {
        return modem.profile;
      },
      restoreProfile: (which) => {
        this.profile =
          which === 'stored' ? storedProfile(this.profileDefaults) : factoryProfile(this.profileDefaults);
      },
      registrationStatus: () => this.registrationStatus(),
      registrationIn: (domain) => this.registrationIn(domain),
      acknowledgeIndication: () => {
        const due = this.acknowledgementDue;
        this.acknowledgementDue = false;
        return due;
      },
      indicationSettingsChanged: () => this.indicationSettingsChanged(),
      restart: () => {
        this.sim.powerCycle();
        this.profile = storedProfile(this.profileDefaults);
        this.bufferedIndications = [];
        this.readMemory = this.storage;
      },
      telephony: this.telephony,
      supportedCommands: () => commandListing(this.table),
    };
  }
}

function checkOptions(options: SimulatedModemOptions): void {
  const counts: [keyof SimulatedModemOptions, number | undefined, number][] = [
    ['replyDelayMs', options.replyDelayMs, 0],
    ['sendDelayMs', options.sendDelayMs, 0],
    ['statusReportDelayMs', options.statusReportDelayMs, 0],
    ['storageSize', options.storageSize, 1],
    ['historyLimit', options.historyLimit, 1],
  ];
  for (const [field, value, minimum] of counts) {
    if (value !== undefined && (!Number.isInteger(value) || value < minimum)) {
      throw new GatewayError(ErrorCode.ConfigInvalid, `${field} must be an integer of at least ${minimum}`, {
        field,
      });
    }
  }
  if (options.simPin !== undefined && !/^\d{4,8}$/.test(options.simPin)) {
    // 3GPP TS 51.011 (GSM 11.11): a CHV (PIN) is 4 to 8 digits.
    throw new GatewayError(ErrorCode.ConfigInvalid, 'simPin must be 4 to 8 digits', { field: 'simPin' });
  }
}
