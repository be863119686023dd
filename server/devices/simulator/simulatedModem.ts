/**
 * The built-in simulated GSM modem: what `npm start` runs when no real modem is found, what
 * `--simulate` runs, and what integration tests and benchmarks drive. It answers AT commands
 * (V.250, TS 27.007, TS 27.005 in PDU mode) on the device end of a Transport, holds SMS in a
 * simulated SIM store, and plays the network: it accepts sends, returns status reports after
 * a delay, and delivers injected incoming messages.
 *
 * Tests steer it (failSends, setSilent, injectIncoming…) and assert on what it received
 * (`commands`, `accepted`), in the manner of zwave-js's MockController. Driver tests that need
 * replies no well-behaved modem gives (a table of their own, byte for byte) use the test-only
 * `ScriptedModem` (test/support/scriptedModem.ts) instead.
 */
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { Transport } from '../transport/transport.js';
import { type AtCommand, parseCommandLine, splitArguments } from './atCommandLine.js';
import { buildCommandTable, commandListing } from './commandTable.js';
import {
  type CommandContext,
  type CommandDefinition,
  type CommandReply,
  plainError,
} from './commandTypes.js';
import { junkLines } from './lineNoise.js';
import { MessageMemories } from './messageMemories.js';
import { type ModemIdentity, resolveIdentity } from './modemIdentity.js';
import { ModemInput, type PduBody } from './modemInput.js';
import { ModemOutput } from './modemOutput.js';
import { factoryProfile, type ModemProfile, type ProfileDefaults, storedProfile } from './modemProfile.js';
import type { IncomingMessage } from './networkPdus.js';
import { NetworkRegistration } from './networkRegistration.js';
import { RelayLink, type RelayLinkCounts } from './relayLink.js';
import { type AtFailure, CmsCode, failureLine, frameResponse } from './resultCodes.js';
import { SimCard } from './simCard.js';
import {
  appendBounded,
  checkSimulatedModemOptions,
  DEFAULT_STORAGE_SIZE,
  type SimulatedModemOptions,
} from './simulatedModemOptions.js';
import {
  type HangUpCommand,
  type RingOptions,
  SimulatedTelephony,
  type UssdService,
} from './simulatedTelephony.js';
import { SmsIndications } from './smsIndications.js';
import { type AcceptedPdu, type InjectOptions, SmsNetwork } from './smsNetwork.js';
import { checkSubmittedPdu } from './submittedPdu.js';

export type { IncomingMessage } from './networkPdus.js';
export type { SimulatedModemOptions } from './simulatedModemOptions.js';
export type { AcceptedPdu, InjectOptions } from './smsNetwork.js';

interface PendingSend {
  tpduLength: number;
  /** When the AT+CMGS command came: the relay link's hold is counted up to here. */
  commandAt: number;
}

/**
 * The AT command interpreter, over the parts that hold the modem's state: the SIM and its
 * message memories (`messageMemories.ts`), the profile AT commands change (`modemProfile.ts`),
 * the network (`networkRegistration.ts`, `smsNetwork.ts`, `simulatedTelephony.ts`), the SMS
 * indications (`smsIndications.ts`) and the output with its delays (`modemOutput.ts`).
 */
export class SimulatedModem {
  private readonly logger: Logger;
  private readonly identity: ModemIdentity;
  private readonly sim: SimCard;
  private readonly memories: MessageMemories;
  private readonly output: ModemOutput;
  private readonly registration: NetworkRegistration;
  private readonly indications: SmsIndications;
  private readonly network: SmsNetwork;
  private readonly profileDefaults: ProfileDefaults;
  private profile: ModemProfile;
  private readonly table: ReadonlyMap<string, CommandDefinition>;
  private readonly relayLink: RelayLink;
  private readonly telephony: SimulatedTelephony;
  private readonly context: CommandContext;
  private readonly input = new ModemInput();
  private readonly receivedCommands: string[] = [];
  private readonly unsubscribers: (() => void)[] = [];
  private openedPort = false;
  private openedIndicationPort = false;
  private processing = false;
  private pendingSend?: PendingSend;
  private garbage = false;
  private noiseSeed = 0;
  /** Work a command asked for that must follow its final result code. */
  private afterReply: (() => void)[] = [];

  constructor(
    private readonly port: Transport,
    private readonly options: SimulatedModemOptions,
  ) {
    checkSimulatedModemOptions(options);
    const { clock } = options;
    const technologies = options.radioTechnologies ?? ['2G', '3G'];
    const profile = () => this.profile;
    this.logger = options.logger.child('simulator');
    this.identity = resolveIdentity(options.identity);
    this.sim = new SimCard(options.simPin);
    this.memories = new MessageMemories(
      options.storageSize ?? DEFAULT_STORAGE_SIZE,
      options.statusReportMemory === 'SR',
    );
    this.profileDefaults = {
      echo: options.echo ?? true,
      statusReports: options.statusReportMode ?? 'cdsi',
      characterSet: options.characterSet ?? 'IRA',
    };
    this.profile = storedProfile(this.profileDefaults);
    this.output = new ModemOutput(port, clock, this.logger);
    this.relayLink = new RelayLink(clock, options.relayLink);
    this.table = buildCommandTable(this.relayLink.modes.length > 0);
    const radio = {
      registration: 1,
      rssi: 20,
      radioOn: (options.radio ?? 'on') === 'on',
      radioSwitchable: options.radio !== 'stuck-off',
      technologies,
      attached: options.attachedTechnology ?? technologies.at(-1) ?? '3G',
      smsService: 1,
    };
    this.registration = new NetworkRegistration(radio, this.sim, this.output, profile);
    this.indications = new SmsIndications(this.output, profile, options.indicationPort);
    this.network = new SmsNetwork({
      options,
      clock,
      logger: this.logger,
      smsc: this.identity.smsc,
      memories: this.memories,
      registration: this.registration,
      indications: this.indications,
      output: this.output,
      profile,
    });
    this.telephony = new SimulatedTelephony({
      clock,
      ussdForm: options.ussdForm,
      characterSet: () => this.profile.characterSet,
      ussdDelayMs: options.ussdDelayMs,
      hangUp: options.hangUp,
      emit: (lines) => this.output.write(frameResponse(lines)),
      callerId: () => this.profile.callerId === 1,
    });
    this.context = this.buildContext();
  }

  /** Every PDU accepted by AT+CMGS, in order. */
  get accepted(): readonly AcceptedPdu[] {
    return this.network.accepted;
  }

  /** Sends that opened the relay link first, and sends that found it open (`relayLink.ts`). */
  get relayLinkCounts(): Readonly<RelayLinkCounts> {
    return this.relayLink.counts;
  }

  /** True while the relay link to the SMSC is open (held after a send under `+CMMS` 1 or 2). */
  get relayLinkOpen(): boolean {
    return this.relayLink.isOpen;
  }

  /** Every command line received (trimmed, without terminator), answered or not. */
  get commands(): readonly string[] {
    return this.receivedCommands;
  }

  async start(): Promise<void> {
    if (this.output.running) return;
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
    this.output.running = true;
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

  /**
   * The next sends (all until cleared, or `count`), or only those to `recipient`, answer
   * +CMS ERROR: <cmsCode> after the send delay.
   */
  failSends(cmsCode: number, count?: number, recipient?: string): void {
    this.network.failSends(cmsCode, count, recipient);
  }

  clearFailures(): void {
    this.network.clearFailures();
  }

  /** Delivers a message from `sender` through the simulated network, in as many parts as it needs. */
  injectIncoming(message: IncomingMessage, options: InjectOptions = {}): void {
    this.network.injectIncoming(message, options);
  }

  /** TP-Status of future status reports (TS 23.040 §9.2.3.15; default 0x00, delivered). */
  setStatusReportOutcome(status: number): void {
    this.network.setStatusReportOutcome(status);
  }

  /** A hung modem: it neither answers, echoes, nor sends unsolicited codes; input is dropped. */
  setSilent(silent: boolean): void {
    this.output.silent = silent;
  }

  /** Every command is answered with junk lines (and no result code) until turned off. */
  setGarbage(enabled: boolean): void {
    this.garbage = enabled;
  }

  /** Sends any unsolicited line, e.g. `+ZDONR: ...`, `^RSSI: 12`, `RING`. */
  emitUnsolicited(line: string): void {
    this.output.write(frameResponse([line]));
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
    this.network.storeIncoming(message);
  }

  /** Saves an outgoing message on the SIM, unsent, as a phone's drafts; false when the SIM is full. */
  storeUnsent(recipient: string, text: string): boolean {
    return this.network.storeUnsent(recipient, text);
  }

  /** Messages in the SIM store now. */
  get storedOnSim(): number {
    return this.memories.sim.used;
  }

  /** The network's registration <stat> (TS 27.007 §7.2), announced by +CREG/+CGREG when enabled. */
  setRegistration(stat: number): void {
    this.registration.set(stat);
  }

  /** +CSQ <rssi>: 0..31, or 99 for unknown. */
  setSignal(rssi: number): void {
    this.registration.setSignal(rssi);
  }

  /**
   * Like a power cut: pending reports, delays, a half-typed PDU, the relay link with its `+CMMS`
   * mode, and unread input are gone.
   */
  private halt(): void {
    this.output.halt();
    this.relayLink.reset();
    this.pendingSend = undefined;
    this.input.clear();
    this.telephony.halt();
  }

  /** Works through complete input one command (or PDU) at a time, in arrival order. */
  private async pump(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.output.running) {
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
    appendBounded(this.receivedCommands, line, this.options.historyLimit);
    if (this.logger.isEnabled('DEBUG')) this.logger.debug('« command', { line });
    if (this.output.silent) return;
    if (this.garbage) {
      this.output.write(frameResponse(junkLines(this.noiseSeed++)));
      return;
    }
    // A line without "AT" gets no answer.
    if (start < 0) return;
    if (this.profile.echo) this.output.write(`${line}\r`);
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
        await this.output.pause(this.options.replyDelayMs);
        this.output.write(`${frameResponse(lines)}\r\n> `);
        this.pendingSend = { tpduLength: reply.tpduLength, commandAt: this.options.clock.now() };
        return;
      }
      lines.push(...reply.lines);
    }
    await this.respond(lines);
    this.finishCommandLine();
  }

  private finishCommandLine(): void {
    for (const work of this.afterReply.splice(0)) work();
    this.registration.announce();
  }

  private execute(command: AtCommand): CommandReply {
    const handler = this.table.get(command.name)?.[command.form];
    if (!handler) return plainError();
    return handler(this.context, command.form === 'set' ? splitArguments(command.args) : [], command);
  }

  private async finishSend(send: PendingSend, body: PduBody): Promise<void> {
    if (this.output.silent) return;
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
    const setupMs = this.relayLink.setupFor(send.commandAt);
    await this.output.pause(setupMs + (this.options.sendDelayMs ?? 0));
    const outcome = this.network.submit(body.hex, check.decoded);
    if ('refusedWith' in outcome) {
      await this.respond([], { kind: 'cms', code: outcome.refusedWith });
      this.relayLink.answered();
      return;
    }
    await this.respond([`+CMGS: ${outcome.messageReference}`]);
    this.relayLink.answered();
    this.network.scheduleStatusReport(outcome);
  }

  private async respond(lines: readonly string[], failure?: AtFailure): Promise<void> {
    await this.output.pause(this.options.replyDelayMs);
    const final = failure ? failureLine(failure, this.profile.errorVerbosity) : 'OK';
    this.output.write(frameResponse(lines) + frameResponse([final]));
  }

  private buildContext(): CommandContext {
    const modem = this;
    const { memories, registration, indications } = this;
    return {
      identity: this.identity,
      sim: this.sim,
      get storage() {
        return memories.reading;
      },
      memories: memories.all,
      urcRouting: indications.urcRouting,
      selectMemory: (name) => memories.select(name),
      radio: registration.radio,
      get profile() {
        return modem.profile;
      },
      restoreProfile: (which) => {
        this.profile =
          which === 'stored' ? storedProfile(this.profileDefaults) : factoryProfile(this.profileDefaults);
      },
      registrationStatus: () => registration.status(),
      registrationIn: (domain) => registration.statusIn(domain),
      acknowledgeIndication: () => indications.acknowledge(),
      indicationSettingsChanged: () => indications.settingsChanged((work) => this.afterReply.push(work)),
      relayLink: this.relayLink,
      restart: () => {
        this.relayLink.reset();
        this.sim.powerCycle();
        this.profile = storedProfile(this.profileDefaults);
        indications.clearBuffered();
        memories.resetSelection();
      },
      telephony: this.telephony,
      supportedCommands: () => commandListing(this.table),
    };
  }
}
