import type { Clock } from '../../clock/clock.js';
import type { ModemDetails, ModemStatus, SimCardInfo } from '../../contract/domain/device.js';
import type { SmsServicePreference } from '../../contract/domain/smsServicePreference.js';
import { describeError, ErrorCode, GatewayError, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { UnsolicitedCode } from '../at/atSession.js';
import { parseRegistration } from '../at/parsers.js';
import type { DeviceCapabilities, UssdAnswer } from '../pool/capabilities.js';
import type { SendRequest, SendResult } from '../pool/outboundModem.js';
import type { PoolMember } from '../pool/poolMember.js';
import type { ModemSource } from '../pool/serialModemSource.js';
import type { CallSink, DeliveryReportSink, IncomingSink } from '../pool/sinks.js';
import { ExclusiveLane } from './exclusiveLane.js';
import { HealthRounds } from './healthRounds.js';
import { IncomingCalls } from './incomingCalls.js';
import { IncomingMessages } from './incomingMessages.js';
import { identifyModem, prepareLine, prepareMessaging } from './modemBringUp.js';
import { ModemConnection } from './modemConnection.js';
import { chooseSmsService } from './modemHealth.js';
import { ModemRecovery, type RecoveryStep, unreachableStatus } from './modemRecovery.js';
import type { ModemSession, SessionFactory } from './modemSession.js';
import type { MessagingSetup, SetupContext } from './modemSetup.js';
import { ModemState } from './modemState.js';
import { checkModemTiming, defaultModemTiming, type ModemTimingOptions } from './modemTiming.js';
import { type RegistrationDomain, RegistrationDomains } from './networkState.js';
import { chooseRelayLinkMode, RelayLinkKeeper } from './relayLinkKeeper.js';
import { SimPin } from './simPin.js';
import { SmsSending } from './smsSending.js';
import { StoragePolling } from './storagePolling.js';
import { UssdChannel } from './ussdChannel.js';
import type { UssdDialect } from './ussdCodec.js';

export interface ModemDriverOptions {
  /**
   * Where the transport comes from. For an unplugged USB modem `openTransport` finds the port
   * again (it may have a new name) and rejects while the modem is not there.
   */
  source: ModemSource;
  createSession: SessionFactory;
  receive: IncomingSink;
  onDeliveryReport: DeliveryReportSink;
  clock: Clock;
  logger: Logger;
  /** SIM PIN tried when the SIM asks, at most once per value unless accepted (see `simPin.ts`). */
  pin?: string;
  timing?: Partial<ModemTimingOptions>;
  /** First concatenation reference (0..255). Default random, so a restart does not reuse one. */
  initialConcatReference?: number;
  /** Every incoming voice call, once (recorded as missed). */
  onCall?: CallSink;
  /** Whether the modem with this id hangs up on incoming calls. Default: it does. */
  rejectCalls?: (deviceId: string) => boolean;
  /** The memory status reports land in was found full: reports due now are refused (`storageFull`). */
  onReportsRefused?: (deviceId: string) => Promise<unknown>;
}

/**
 * One driver per modem: the lifecycle core. It opens the session, brings the modem up
 * (`modemBringUp.ts`), routes its unsolicited codes, keeps its status (`modemState.ts`) and
 * hands each job to a collaborator: sending (`smsSending.ts`), storage polling
 * (`storagePolling.ts`) and incoming messages (`incomingMessages.ts`), health rounds
 * (`healthRounds.ts`), recovery (`modemRecovery.ts`), the SIM PIN (`simPin.ts`), USSD
 * (`ussdChannel.ts`) and calls (`incomingCalls.ts`).
 *
 * Timeouts escalate probe → re-init → reopen with capped exponential back-off; an unplugged
 * modem is 'offline' until `openTransport` finds it again, while a network address where nothing
 * ever answered `AT` is given up ('not-a-modem'). Sends are refused with ModemUnavailable unless
 * the modem is 'ready'.
 */
export class ModemDriver implements PoolMember {
  readonly simSlots = 1;
  readonly capabilities: DeviceCapabilities = {
    ussd: this,
    simPin: this,
    smsService: this,
    storage: this,
    calls: true,
    deliveryReports: true,
    atLog: true,
  };
  private readonly timing: ModemTimingOptions;
  private readonly logger: Logger;
  private readonly state: ModemState;
  private readonly incoming: IncomingMessages;
  private readonly ussdChannel: UssdChannel;
  private readonly calls: IncomingCalls;
  private readonly sending: SmsSending;
  private readonly relayLink: RelayLinkKeeper;
  private readonly polling: StoragePolling;
  private readonly healthRounds: HealthRounds;
  private readonly recovery: ModemRecovery;
  private readonly simPin: SimPin;
  /** Sends, USSD exchanges and hang-ups, one at a time (see `exclusiveLane.ts`). */
  private readonly lane = new ExclusiveLane();
  private readonly connection: ModemConnection;
  private stopped = false;
  /** A command of ours got `OK` on some connection: there is a modem at this source. */
  private answeredOnce = false;
  /** Connections in a row that opened without an `OK`, while none ever got one. */
  private silentConnections = 0;

  constructor(private readonly options: ModemDriverOptions) {
    const timing = checkModemTiming({ ...defaultModemTiming, ...options.timing });
    this.timing = timing;
    const { clock, source } = options;
    const logger = options.logger.child(`modem:${source.port}`);
    this.logger = logger;
    const state = new ModemState(source, clock, logger);
    this.state = state;
    const { commandTimeoutMs } = timing;
    const deviceId = () => state.deviceId;
    const recoverByProbe = () => void this.recovery.recover('probe');
    this.connection = new ModemConnection({
      source,
      createSession: options.createSession,
      logger,
      answered: () => {
        this.answeredOnce = true;
        state.touch();
      },
      unsolicited: (session, code) => this.handleUnsolicited(session, code),
      closed: (_session, error) => this.handleClosed(error),
    });
    this.incoming = new IncomingMessages({
      deviceId,
      receive: options.receive,
      onDeliveryReport: options.onDeliveryReport,
      logger,
      commandTimeoutMs,
      // Only where messages and reports land (<mem3>): a full memory that is only read loses nothing.
      capacityOf: (memory) =>
        state.known.storageUse.find((use) => use.memory === memory && use.roles.includes('receive'))?.total,
      storageFull: (memory) => this.storageFull(memory),
    });
    this.ussdChannel = new UssdChannel({ clock, logger, commandTimeoutMs });
    this.calls = new IncomingCalls({
      deviceId,
      clock,
      logger,
      rejectCalls: () => options.rejectCalls?.(state.deviceId) ?? true,
      hangUp: () => this.lane.run(() => this.hangUp()),
      onCall: (call) => options.onCall?.(call),
    });
    this.relayLink = new RelayLinkKeeper({ clock, logger, commandTimeoutMs });
    this.sending = new SmsSending({
      clock,
      logger,
      // The prompt is the modem's own answer, due as fast as any command's; +CMGS waits on the network.
      waits: { promptTimeoutMs: commandTimeoutMs, resultTimeoutMs: timing.sendTimeoutMs },
      initialConcatReference: options.initialConcatReference,
      onSilence: recoverByProbe,
      onSent: () => this.polling.soon(),
      storageRead: () => this.incoming.idle(),
      relayLink: this.relayLink,
    });
    this.polling = new StoragePolling({
      clock,
      logger,
      pollIntervalMs: timing.pollIntervalMs,
      pollAfterSendMs: timing.pollAfterSendMs,
      known: state.known,
      inService: () => state.inService(),
      refresh: () => this.listStorage(),
      onFull: (memory) => this.storageFull(memory),
    });
    this.healthRounds = new HealthRounds({
      clock,
      logger,
      healthIntervalMs: timing.healthIntervalMs,
      probeTimeoutMs: timing.probeTimeoutMs,
      state,
      polling: this.polling,
      context: () => this.context(this.readySession()),
      registrationRead: () => this.applyRegistration(),
      onSilence: recoverByProbe,
    });
    this.recovery = new ModemRecovery({
      clock,
      logger,
      backoffInitialMs: timing.backoffInitialMs,
      backoffMaxMs: timing.backoffMaxMs,
      stopped: () => this.stopped,
      begin: () => {
        this.stopTimers();
        if (state.inService())
          state.set('recovering', 'The modem stopped answering; recovering.', 'not-answering');
      },
      run: (step) => this.recoveryStep(step),
      isTerminal,
      reopenFailed: (error) => this.markUnreachable(error),
    });
    this.simPin = new SimPin({
      configuredPin: options.pin,
      logger,
      commandTimeoutMs,
      setStatus: (status, detail) => state.set(status, detail),
    });
  }

  /** Derived from the IMEI once read (then fixed), else the USB serial number, else the port. */
  get deviceId(): string {
    return this.state.deviceId;
  }

  get status(): ModemStatus {
    return this.state.status;
  }

  get lastSeen(): number {
    return this.state.lastSeen;
  }

  /** The port in use now (a replugged USB modem may have a new one). */
  get port(): string {
    return this.options.source.port;
  }

  /** Called on every status or detail change. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    return this.state.onChange(listener);
  }

  /** Connects and initialises; resolves after the first attempt (retries go on in the background). */
  async start(): Promise<void> {
    this.stopped = false;
    this.silentConnections = 0;
    try {
      await this.connect();
    } catch (error) {
      if (isTerminal(error)) return;
      this.logger.warn('modem not available yet; retrying', { error: describeError(error) });
      this.markUnreachable(error);
      void this.recovery.recover('reopen', true);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopTimers();
    await this.connection.close();
    await this.incoming.idle();
    this.state.set('offline', 'stopped');
  }

  details(): ModemDetails {
    const details = this.state.details();
    const relayLink = this.relayLink.figures();
    return relayLink ? { ...details, relayLink } : details;
  }

  simCard(): SimCardInfo {
    return this.state.simCard();
  }

  /** Waits its turn in the lane: a USSD exchange or a hang-up never comes between two parts. */
  send(request: SendRequest): Promise<SendResult> {
    return this.lane.run(async () => {
      const session = this.connection.current;
      if (this.state.status !== 'ready' || !session) throw this.unavailable();
      return this.sending.send(session, request, this.state.deviceId);
    });
  }

  /**
   * Sends a USSD code (`*100#`) or the reply in an open session, after any send in progress,
   * and resolves with the network's answer. The answer's status 1 means the network waits for
   * another reply; `cancelUssd` ends such a session.
   */
  ussd(text: string): Promise<UssdAnswer> {
    this.readySession();
    return this.lane.run(() =>
      this.ussdChannel.request(this.readySession(), text, this.ussdDialect(), this.timing.ussdTimeoutMs),
    );
  }

  private ussdDialect(): UssdDialect {
    const { quirks, charset } = this.state.known;
    return { form: quirks.ussdTextForm, charset };
  }

  /** `AT+CUSD=2`: ends a USSD session the network holds open. */
  cancelUssd(): Promise<void> {
    this.readySession();
    return this.lane.run(() => this.ussdChannel.cancel(this.readySession()));
  }

  /** Lists and processes everything in the modem storage. */
  async refreshInbox(): Promise<void> {
    const session = this.readySession();
    const { setup } = this.state.known;
    if (setup) await this.incoming.refresh(session, setup);
  }

  /** Unlocks the SIM with a PIN the user typed (never retried automatically), then finishes init. */
  async enterPin(pin: string): Promise<void> {
    const session = this.connection.current;
    if (!session) throw this.unavailable();
    const { status, deviceId, known } = this.state;
    if (status !== 'sim-pin-required' && status !== 'sim-pin-wrong') {
      throw new GatewayError(ErrorCode.InvalidState, `modem ${deviceId} is not waiting for a PIN`);
    }
    await this.simPin.enter(this.context(session), pin, known.quirks.cpinWithoutOk);
    await this.finishInit(session);
  }

  /** Sets the SMS domain preference (AT+CGSMS=<service>) and reads it back. */
  async setSmsService(preference: SmsServicePreference): Promise<void> {
    const session = this.connection.current;
    if (!session || !this.state.inService()) throw this.unavailable();
    const { known, deviceId } = this.state;
    known.radio = await chooseSmsService(this.context(session), known.radio, preference, deviceId);
    this.logger.info('SMS service preference set', { preference });
    this.state.changed();
  }

  private async hangUp(): Promise<void> {
    const { quirks } = this.state.known;
    await this.readySession().execute(quirks.hangUp, { timeoutMs: this.timing.commandTimeoutMs });
  }

  private unavailable(): GatewayError {
    return new GatewayError(
      ErrorCode.ModemUnavailable,
      `modem ${this.state.deviceId} is ${this.state.status}`,
    );
  }

  private readySession(): ModemSession {
    const session = this.connection.current;
    if (!this.state.inService() || !session) throw this.unavailable();
    return session;
  }

  private context(session: ModemSession): SetupContext {
    return { session, clock: this.options.clock, commandTimeoutMs: this.timing.commandTimeoutMs };
  }

  /**
   * Opens a fresh transport and session, then initialises. A connection that opened but never
   * got an `OK` counts towards giving the source up (`giveUpUnlessModem`).
   */
  private async connect(): Promise<void> {
    const session = await this.connection.open();
    try {
      await this.initialize(session);
    } catch (error) {
      await this.giveUpUnlessModem();
      throw error;
    }
  }

  /**
   * A network address may lead to any service: after `silentConnectionLimit`
   * connections that opened without anything answering `AT` with `OK`, while nothing there ever
   * did, the driver stops calling it ('not-a-modem') until it is started again.
   */
  private async giveUpUnlessModem(): Promise<void> {
    const limit = this.options.source.silentConnectionLimit;
    if (limit === undefined || this.answeredOnce) return;
    this.silentConnections++;
    if (this.silentConnections < limit) return;
    this.stopped = true;
    this.stopTimers();
    await this.connection.close();
    const detail =
      `Nothing at ${this.port} answered AT like a modem in ${limit} connections, so the gateway stopped ` +
      "calling it. Check the address (a serial server's raw TCP port), then add it again.";
    this.logger.warn('no modem answers at this address; it is not called again', { connections: limit });
    this.state.set('not-a-modem', detail);
    throw new GatewayError(ErrorCode.NotAModem, detail);
  }

  private async initialize(session: ModemSession): Promise<void> {
    const { state, timing } = this;
    this.stopTimers();
    state.set(state.status === 'offline' ? 'starting' : state.inService() ? 'recovering' : state.status);
    const context = this.context(session);
    const sync = {
      attempts: timing.syncAttempts,
      timeoutMs: timing.syncTimeoutMs,
      quietMs: timing.syncQuietMs,
    };
    await identifyModem(context, state.known, sync);
    const { identity, quirks } = state.known;
    state.identified(identity.imei);
    this.logger.info('modem identified', { ...identity, family: quirks.family, deviceId: state.deviceId });
    await prepareLine(context, state.known, this.options.source.portRole, this.logger);
    if (!(await this.simPin.unlock(context, state.known.quirks.cpinWithoutOk))) return;
    await this.finishInit(session);
  }

  /** The steps that need an unlocked SIM, then in service. */
  private async finishInit(session: ModemSession): Promise<void> {
    const context = this.context(session);
    const setup = await prepareMessaging(context, this.state.known, this.logger);
    this.relayLink.configured(await chooseRelayLinkMode(context));
    await this.polling.readUse(context);
    this.logger.info('modem ready', {
      storage: setup.storage,
      indications: setup.newMessageIndication ?? 'polling',
      statusReports: setup.statusReportIndication ?? 'none',
    });
    this.resume(session, setup);
  }

  /**
   * In service again: 'ready' when registered, else 'no-network' (health rounds and
   * registration codes bring it back). The storage is listed every time: a +CMTI sent while
   * the line was dead (a hang, an unplug) is never repeated, and its message would sit on the SIM.
   */
  private resume(session: ModemSession, setup: MessagingSetup): void {
    this.applyRegistration();
    this.startTimers();
    this.incoming.refresh(session, setup).catch((error: unknown) => {
      this.logger.warn('reading stored messages failed', { error: describeError(error) });
    });
  }

  /** Settles 'ready' / 'no-network'; messages stored while out of service are read now. */
  private applyRegistration(): void {
    if (this.state.settleRegistration()) this.polling.soon();
  }

  private handleUnsolicited(session: ModemSession, code: UnsolicitedCode): void {
    const { state } = this;
    state.touch();
    const { setup, quirks, health } = state.known;
    if (setup && this.incoming.handleUnsolicited(session, setup, code)) return;
    if (this.ussdChannel.handleUnsolicited(code, this.ussdDialect())) return;
    if (this.calls.handleUnsolicited(code)) return;
    if (isRegistrationDomain(code.name)) {
      const registration = parseRegistration(code.line, 'unsolicited', code.name);
      if (registration) {
        health.registrations[code.name] = registration.stat;
        if (state.inService()) this.applyRegistration();
        state.changed();
      }
      return;
    }
    if (quirks.noise.includes(code.name)) {
      this.logger.debug('modem status chatter', { line: code.line });
      return;
    }
    this.logger.info('unsolicited code', { line: code.line });
  }

  private handleClosed(error?: Error): void {
    this.stopTimers();
    this.calls.reset();
    if (this.stopped) return;
    this.logger.warn('modem disconnected', { error: error ? describeError(error) : undefined });
    this.state.set('offline', 'The modem was disconnected; waiting for it to come back.', 'disconnected');
    void this.recovery.recover('reopen');
  }

  private async recoveryStep(step: RecoveryStep): Promise<void> {
    const session = this.connection.current;
    if (step === 'reopen' || !session) {
      await this.connect();
      return;
    }
    if (step === 'probe') {
      await session.execute('AT', { timeoutMs: this.timing.probeTimeoutMs });
      const { setup } = this.state.known;
      if (setup) {
        this.resume(session, setup);
        return;
      }
    }
    await this.initialize(session);
  }

  private markUnreachable(error: unknown): void {
    const { status, detail, reason } = unreachableStatus(error, this.connection.current !== undefined);
    this.state.set(status, detail, reason);
  }

  /** After sleep the modem may have reset or gone: its health round runs now, not in minutes. */
  recheck(): void {
    this.healthRounds.runNow();
  }

  private startTimers(): void {
    this.stopTimers();
    if (this.stopped) return;
    this.healthRounds.start();
    this.polling.start();
  }

  private stopTimers(): void {
    this.healthRounds.stop();
    this.polling.stop();
  }

  /**
   * A memory status reports land in has no free slot: the modem refuses each report the network
   * brings now, and SMSCs rarely offer one again, so the messages still waiting for theirs are
   * told (`onReportsRefused`). A report that does arrive later still counts.
   */
  private storageFull(memory: string): void {
    this.logger.warn('message storage full: delivery reports arriving now are lost', { memory });
    this.state.known.reportsRefused = { memory, at: this.options.clock.now() };
    this.state.changed();
    const deviceId = this.state.deviceId;
    this.options.onReportsRefused?.(deviceId).catch((error: unknown) => {
      this.logger.warn('could not mark the messages whose reports may be lost', {
        error: describeError(error),
      });
    });
  }

  /** One storage poll (`storagePolling.ts`). */
  private async listStorage(): Promise<void> {
    const session = this.connection.current;
    const { setup } = this.state.known;
    if (session && setup) await this.incoming.refresh(session, setup);
  }
}

/** A wrong PIN, or an address given up, needs the user; nothing automatic may retry it. */
function isTerminal(error: unknown): boolean {
  return isGatewayError(error, ErrorCode.SimPinWrong) || isGatewayError(error, ErrorCode.NotAModem);
}

function isRegistrationDomain(name: string): name is RegistrationDomain {
  return (RegistrationDomains as readonly string[]).includes(name);
}
