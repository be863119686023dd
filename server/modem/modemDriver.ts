import { randomInt } from 'node:crypto';
import type { UnsolicitedCode } from '../at/atSession.js';
import { parseCmgs, parseRegistration } from '../at/parsers.js';
import { type Clock, sleep, type TimerHandle } from '../clock/clock.js';
import type { ModemDetails, ModemStatus, SimCardInfo, StorageUse } from '../domain/device.js';
import { codeOfSmsService, type SmsServicePreference } from '../domain/smsServicePreference.js';
import { describeError, ErrorCode, GatewayError, isGatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { encodeSubmit } from '../pdu/index.js';
import { backoffDelay } from './backoff.js';
import { deriveDeviceId } from './deviceIdentity.js';
import { ExclusiveLane } from './exclusiveLane.js';
import { type CallSink, IncomingCalls } from './incomingCalls.js';
import { IncomingMessages } from './incomingMessages.js';
import {
  type HealthReading,
  type RadioCapabilities,
  readHealth,
  readPinState,
  readRadioCapabilities,
} from './modemHealth.js';
import type { DeliveryReportSink, IncomingSink, ModemSession, SessionFactory } from './modemSession.js';
import {
  configureMessaging,
  type MessagingSetup,
  type ModemIdentity,
  optional,
  readModemIdentity,
  readSimIdentity,
  type SetupContext,
  type SimIdentity,
  synchronise,
} from './modemSetup.js';
import { checkModemTiming, defaultModemTiming, type ModemTimingOptions } from './modemTiming.js';
import {
  combinedRegistration,
  notRegisteredExplanation,
  type RegistrationDomain,
  RegistrationDomains,
} from './networkState.js';
import type { OutboundModem, SendRequest, SendResult } from './outboundModem.js';
import { sendFailureError, submitOptionsFor } from './outgoingSms.js';
import { genericProfile, type QuirkProfile, quirksFor } from './quirks.js';
import type { ModemSource } from './serialModemSource.js';
import { parseStorageUse, storageNeedsEmptying } from './storageUse.js';
import { type UssdAnswer, UssdChannel } from './ussdChannel.js';

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
  /**
   * SIM PIN tried when the SIM asks. Sent automatically at most once per value unless the SIM
   * accepted it: any other answer (a refusal, an unknown error, silence) stops it until a person
   * enters a PIN (`enterPin`), as 3 wrong PINs lock a SIM to its PUK.
   */
  pin?: string;
  timing?: Partial<ModemTimingOptions>;
  /** First concatenation reference (0..255). Default random, so a restart does not reuse one. */
  initialConcatReference?: number;
  /** Every incoming voice call, once (recorded as missed). */
  onCall?: CallSink;
  /** Whether the modem with this id hangs up on incoming calls. Default: it does. */
  rejectCalls?: (deviceId: string) => boolean;
}

type RecoveryStep = 'probe' | 'reinit' | 'reopen';

/**
 * One driver per modem: brings it up (sync, identity, SIM PIN, storage, indications), sends,
 * receives, watches its health and recovers it. Timeouts escalate probe → re-init → reopen
 * with capped exponential back-off; an unplugged modem is 'offline' until `openTransport`
 * finds it again. Sends are refused with ModemUnavailable unless the modem is 'ready'.
 */
export class ModemDriver implements OutboundModem {
  readonly simSlots = 1;
  private readonly timing: ModemTimingOptions;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly incoming: IncomingMessages;
  private readonly ussdChannel: UssdChannel;
  private readonly calls: IncomingCalls;
  /** Sends, USSD exchanges and hang-ups, one at a time (see `exclusiveLane.ts`). */
  private readonly lane = new ExclusiveLane();
  private storageUse: StorageUse[] = [];
  private readonly listeners = new Set<() => void>();
  private session?: ModemSession;
  private detachSession: Array<() => void> = [];
  private status_: ModemStatus = 'starting';
  private statusDetail?: string;
  private identity: ModemIdentity = {};
  private sim: SimIdentity = {};
  private setup?: MessagingSetup;
  private health: HealthReading = { registrations: {} };
  private radio: RadioCapabilities = { smsServiceOptions: [] };
  private quirks: QuirkProfile = genericProfile;
  private identifiedId?: string;
  private readonly fallbackId: string;
  private lastSeen_ = 0;
  /** The configured PIN's value after an answer other than OK: never sent automatically again. */
  private unconfirmedPin?: string;
  private recovering = false;
  private stopped = false;
  private healthTimer?: TimerHandle;
  private pollTimer?: TimerHandle;
  private pollDueAt?: number;
  /** A send finished while a poll round was running: the next round comes soon, not late. */
  private pollRequested = false;
  private concatReference: number;

  constructor(private readonly options: ModemDriverOptions) {
    this.timing = checkModemTiming({ ...defaultModemTiming, ...options.timing });
    this.clock = options.clock;
    const { source } = options;
    this.fallbackId = deriveDeviceId({ port: source.port, usbSerialNumber: source.usb?.serialNumber });
    this.logger = options.logger.child(`modem:${source.port}`);
    this.concatReference = options.initialConcatReference ?? randomInt(256);
    this.incoming = new IncomingMessages({
      deviceId: () => this.deviceId,
      receive: options.receive,
      onDeliveryReport: options.onDeliveryReport,
      logger: this.logger,
      commandTimeoutMs: this.timing.commandTimeoutMs,
    });
    this.ussdChannel = new UssdChannel({
      clock: this.clock,
      logger: this.logger,
      commandTimeoutMs: this.timing.commandTimeoutMs,
    });
    this.calls = new IncomingCalls({
      deviceId: () => this.deviceId,
      clock: this.clock,
      logger: this.logger,
      rejectCalls: () => options.rejectCalls?.(this.deviceId) ?? true,
      hangUp: () => this.lane.run(() => this.hangUp()),
      onCall: (call) => options.onCall?.(call),
    });
  }

  /** Derived from the IMEI once read (then fixed), else the USB serial number, else the port. */
  get deviceId(): string {
    return this.identifiedId ?? this.fallbackId;
  }

  get status(): ModemStatus {
    return this.status_;
  }

  get lastSeen(): number {
    return this.lastSeen_;
  }

  /** The port in use now (a replugged USB modem may have a new one). */
  get port(): string {
    return this.options.source.port;
  }

  /** Called on every status or detail change. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Connects and initialises; resolves after the first attempt (retries go on in the background). */
  async start(): Promise<void> {
    this.stopped = false;
    try {
      await this.connect();
    } catch (error) {
      if (this.isTerminal(error)) return;
      this.logger.warn('modem not available yet; retrying', { error: describeError(error) });
      this.markUnreachable(error);
      void this.recover('reopen', true);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopTimers();
    await this.closeSession();
    await this.incoming.idle();
    this.setStatus('offline', 'stopped');
  }

  details(): ModemDetails {
    const { registrations, ...health } = this.health;
    const details: ModemDetails = {
      port: this.options.source.port,
      simulated: this.options.source.simulated ?? false,
      status: this.status_,
      ...this.identity,
      ...health,
    };
    const { registration } = combinedRegistration(registrations);
    if (registration) details.registration = registration;
    if (this.radio.supported) details.radioSupport = [...this.radio.supported];
    if (this.radio.smsService) details.smsService = this.radio.smsService;
    if (this.radio.smsServiceOptions.length > 0)
      details.smsServiceOptions = [...this.radio.smsServiceOptions];
    if (this.statusDetail) details.statusDetail = this.statusDetail;
    if (this.options.source.usb) details.usb = { ...this.options.source.usb };
    if (this.sim.smsc) details.smsc = this.sim.smsc;
    if (this.storageUse.length > 0) details.messageStorage = this.storageUse.map((use) => ({ ...use }));
    return details;
  }

  simCard(): SimCardInfo {
    const card: SimCardInfo = { slotIndex: 0, simNumber: 1 };
    if (this.sim.phoneNumber) card.phoneNumber = this.sim.phoneNumber;
    if (this.health.operator) card.carrierName = this.health.operator;
    if (this.sim.iccid) card.iccid = this.sim.iccid;
    return card;
  }

  /** Waits its turn in the lane: a USSD exchange or a hang-up never comes between two parts. */
  send(request: SendRequest): Promise<SendResult> {
    return this.lane.run(() => this.sendNow(request));
  }

  /**
   * Sends a USSD code (`*100#`) or the reply in an open session, after any send in progress,
   * and resolves with the network's answer. The answer's status 1 means the network waits for
   * another reply; `cancelUssd` ends such a session.
   */
  ussd(text: string): Promise<UssdAnswer> {
    this.readySession();
    return this.lane.run(() =>
      this.ussdChannel.request(
        this.readySession(),
        text,
        this.quirks.ussdTextForm,
        this.timing.ussdTimeoutMs,
      ),
    );
  }

  /** `AT+CUSD=2`: ends a USSD session the network holds open. */
  cancelUssd(): Promise<void> {
    this.readySession();
    return this.lane.run(() => this.ussdChannel.cancel(this.readySession()));
  }

  private async hangUp(): Promise<void> {
    await this.readySession().execute(this.quirks.hangUp, { timeoutMs: this.timing.commandTimeoutMs });
  }

  private async sendNow(request: SendRequest): Promise<SendResult> {
    const session = this.session;
    if (this.status_ !== 'ready' || !session) {
      throw new GatewayError(ErrorCode.ModemUnavailable, `modem ${this.deviceId} is ${this.status_}`);
    }
    if (request.simNumber !== 1) {
      throw new GatewayError(ErrorCode.ValidationFailed, `modem ${this.deviceId} has one SIM slot`, {
        field: 'simNumber',
      });
    }
    const parts = encodeSubmit(submitOptionsFor(request, this.concatReference, this.clock.now()));
    this.concatReference = (this.concatReference + 1) % 256;
    const references: number[] = [];
    for (const [index, part] of parts.entries()) {
      let lines: string[];
      try {
        // The prompt is the modem's own answer, due as fast as any command's; the result after
        // the PDU waits on the network.
        ({ lines } = await session.sendPdu(`AT+CMGS=${part.tpduLength}`, part.hex, {
          promptTimeoutMs: this.timing.commandTimeoutMs,
          timeoutMs: this.timing.sendTimeoutMs,
        }));
      } catch (error) {
        throw this.sendFailure(error, request, index, parts.length);
      }
      const reference = parseCmgs(lines);
      if (reference === undefined) {
        // OK without +CMGS: the network took the part, but without its TP-MR no status report
        // can be matched to it; -1 is outside 0..255, so none ever will.
        this.logger.warn('+CMGS reference missing in the answer', { messageId: request.messageId, lines });
      }
      references.push(reference ?? -1);
    }
    this.logger.info('message sent', { messageId: request.messageId, parts: parts.length, references });
    // A status report may be kept where no indication reaches us (another USB interface, or
    // "SR" with no +CDSI): look soon, as gammu-smsd checks after each send.
    this.pollSoon();
    return { references };
  }

  /** Lists and processes everything in the modem storage. */
  async refreshInbox(): Promise<void> {
    const session = this.readySession();
    if (this.setup) await this.incoming.refresh(session, this.setup);
  }

  /** Unlocks the SIM with a PIN the user typed (never retried automatically), then finishes init. */
  async enterPin(pin: string): Promise<void> {
    const session = this.session;
    if (!session)
      throw new GatewayError(ErrorCode.ModemUnavailable, `modem ${this.deviceId} is ${this.status_}`);
    if (this.status_ !== 'sim-pin-required' && this.status_ !== 'sim-pin-wrong') {
      throw new GatewayError(ErrorCode.InvalidState, `modem ${this.deviceId} is not waiting for a PIN`);
    }
    const context = this.context(session);
    const state = await readPinState(context, this.quirks.cpinWithoutOk);
    if (state?.includes('PUK')) {
      throw new GatewayError(
        ErrorCode.SimPinWrong,
        'the SIM is blocked and needs its PUK (unlock it in a phone)',
      );
    }
    if (state !== 'READY') await this.submitPin(context, pin);
    await this.finishInit(session);
  }

  /**
   * Logs what became of a part that did not go out cleanly, and checks the modem when it went
   * silent; the error itself says whether anything may have left (`sendFailureError`).
   */
  private sendFailure(error: unknown, request: SendRequest, index: number, count: number): GatewayError {
    const failure = sendFailureError(error, index, count);
    if (failure.code === ErrorCode.CmsError) {
      this.logger.warn('modem refused the message', {
        messageId: request.messageId,
        modemCode: failure.modemCode,
        part: index + 1,
      });
    } else if (failure.code === ErrorCode.SendInterrupted) {
      this.logger.warn('send interrupted; outcome unknown', {
        messageId: request.messageId,
        error: describeError(error),
      });
      if (isGatewayError(error, ErrorCode.AtTimeout)) void this.recover('probe');
    }
    return failure;
  }

  private readySession(): ModemSession {
    if (!this.inService() || !this.session) {
      throw new GatewayError(ErrorCode.ModemUnavailable, `modem ${this.deviceId} is ${this.status_}`);
    }
    return this.session;
  }

  private context(session: ModemSession): SetupContext {
    return { session, clock: this.clock, commandTimeoutMs: this.timing.commandTimeoutMs };
  }

  /** Opens a fresh transport and session, then initialises. */
  private async connect(): Promise<void> {
    await this.closeSession();
    const transport = await this.options.source.openTransport();
    const session = this.track(this.options.createSession(transport));
    this.detachSession = [
      session.onUnsolicited((code) => this.handleUnsolicited(session, code)),
      session.onClose((error) => this.handleClosed(session, error)),
    ];
    try {
      await session.open();
    } catch (error) {
      this.detach();
      throw error;
    }
    this.session = session;
    this.logger.info('port open', { transport: transport.description });
    await this.initialize(session);
  }

  /** Wraps the session so every answer counts as a sign of life (`lastSeen`). */
  private track(session: ModemSession): ModemSession {
    return {
      open: () => session.open(),
      close: () => session.close(),
      execute: async (command, options) => {
        const response = await session.execute(command, options);
        this.touch();
        return response;
      },
      sendPdu: async (command, pdu, options) => {
        const response = await session.sendPdu(command, pdu, options);
        this.touch();
        return response;
      },
      cancelPendingInput: (quietMs) => session.cancelPendingInput(quietMs),
      onUnsolicited: (listener) => session.onUnsolicited(listener),
      onClose: (listener) => session.onClose(listener),
    };
  }

  private async initialize(session: ModemSession): Promise<void> {
    this.stopTimers();
    this.setStatus(this.status_ === 'offline' ? 'starting' : this.inService() ? 'recovering' : this.status_);
    const context = this.context(session);
    await synchronise(context, {
      attempts: this.timing.syncAttempts,
      timeoutMs: this.timing.syncTimeoutMs,
      quietMs: this.timing.syncQuietMs,
    });
    await session.execute('ATE0', { timeoutMs: this.timing.commandTimeoutMs });
    // Numeric +CME/+CMS codes (TS 27.007 §9.1): the driver decides on codes, not texts.
    await optional(context, 'AT+CMEE=1', () => true);
    this.identity = await readModemIdentity(context);
    this.quirks = quirksFor(this.identity.manufacturer, this.identity.model);
    if (this.identity.imei && !this.identifiedId) {
      this.identifiedId = deriveDeviceId({ imei: this.identity.imei, port: this.options.source.port });
    }
    this.logger.info('modem identified', {
      ...this.identity,
      family: this.quirks.family,
      deviceId: this.deviceId,
    });
    for (const command of this.quirks.extraInit) await optional(context, command, () => true);
    await this.routeUnsolicitedCodes(context);
    if (!(await this.unlockSim(context))) return;
    await this.finishInit(session);
  }

  /**
   * Asks a multi-port modem to send its unsolicited codes (+CMTI, +CDSI, +CREG…) to our port.
   * Not every firmware knows the command; polling the storage covers those.
   */
  private async routeUnsolicitedCodes(context: SetupContext): Promise<void> {
    const routing = this.quirks.urcRouting?.(this.options.source.portRole);
    if (!routing) return;
    if (routing.query && routing.already) {
      const pattern = routing.already;
      const set = await optional(context, routing.query, (lines) => lines.some((line) => pattern.test(line)));
      if (set) return;
    }
    if (await optional(context, routing.command, () => true)) {
      this.logger.info('unsolicited codes routed to this port', { command: routing.command });
    }
  }

  /** The steps that need an unlocked SIM. */
  private async finishInit(session: ModemSession): Promise<void> {
    const context = this.context(session);
    this.sim = await readSimIdentity(context);
    this.setup = await configureMessaging(context, this.quirks);
    // Long alphanumeric operator names in +COPS? (TS 27.007 §7.3 <format> 0).
    await optional(context, 'AT+COPS=3,0', () => true);
    // Registration changes as they happen, in all three domains (TS 27.007 §7.2, §10.1.20,
    // §10.1.22); a modem without one of them refuses it, which is fine.
    for (const domain of RegistrationDomains) await optional(context, `AT${domain}=1`, () => true);
    // The caller's number after each RING (TS 27.007 §7.6), so a missed call has a number.
    await optional(context, 'AT+CLIP=1', () => true);
    this.radio = await readRadioCapabilities(context);
    this.health = await readHealth(context, this.quirks.cpinWithoutOk);
    await this.readStorageUse(session);
    this.logger.info('modem ready', {
      storage: this.setup.storage,
      indications: this.setup.newMessageIndication ?? 'polling',
      statusReports: this.setup.statusReportIndication ?? 'none',
    });
    this.resume(session, this.setup);
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

  /**
   * A modem registered to no network cannot send: every attempt would come back as a bare
   * +CMS ERROR. It is held in 'no-network', with the reason in words, until it registers.
   */
  private applyRegistration(): void {
    const { registration, registered } = combinedRegistration(this.health.registrations);
    if (registered === false) {
      this.setStatus('no-network', notRegisteredExplanation(registration, this.radio.supported));
      return;
    }
    const wasWaiting = this.status_ === 'no-network';
    this.setStatus('ready');
    // Messages may have been stored while it was out of service; and they are only read now.
    if (wasWaiting) this.pollSoon();
  }

  /** Sets the SMS domain preference (AT+CGSMS=<service>) and reads it back. */
  async setSmsService(preference: SmsServicePreference): Promise<void> {
    const session = this.session;
    if (!session || !this.inService()) {
      throw new GatewayError(ErrorCode.ModemUnavailable, `modem ${this.deviceId} is ${this.status_}`);
    }
    if (!this.radio.smsServiceOptions.includes(preference)) {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        `modem ${this.deviceId} does not offer the SMS service "${preference}"`,
        { field: 'service' },
      );
    }
    await session.execute(`AT+CGSMS=${codeOfSmsService(preference)}`, {
      timeoutMs: this.timing.commandTimeoutMs,
    });
    this.radio = await readRadioCapabilities(this.context(session));
    this.logger.info('SMS service preference set', { preference });
    this.emitChange();
  }

  /** Initialised, SIM unlocked, answering: registered or not. */
  private inService(): boolean {
    return this.status_ === 'ready' || this.status_ === 'no-network';
  }

  /** Returns true when the SIM is usable; otherwise sets the status that says why. */
  private async unlockSim(context: SetupContext): Promise<boolean> {
    const state = await readPinState(context, this.quirks.cpinWithoutOk);
    if (state === undefined || state === 'READY') return true;
    if (state === 'NOT INSERTED') {
      throw new GatewayError(ErrorCode.ModemNotReady, 'no SIM card in the modem');
    }
    if (state.includes('PUK')) {
      this.setStatus(
        'sim-pin-wrong',
        'The SIM is blocked after too many wrong PINs: unlock it with its PUK in a phone.',
      );
      return false;
    }
    if (state !== 'SIM PIN') {
      this.setStatus('sim-pin-required', `The modem asks for ${state}.`);
      return false;
    }
    const pin = this.options.pin;
    if (pin === undefined) {
      this.setStatus('sim-pin-required', 'The SIM asks for its PIN: enter it for this device.');
      return false;
    }
    if (pin === this.unconfirmedPin) {
      this.setStatus(
        'sim-pin-wrong',
        'The SIM did not accept the configured PIN, which is not sent again; enter the PIN for this device.',
      );
      return false;
    }
    await this.submitPin(context, pin);
    return true;
  }

  /**
   * TS 27.007 §8.3 AT+CPIN. Only OK counts as accepted. Any other outcome — +CME ERROR 16
   * "incorrect password", another error, no answer — may have used up one of the SIM's 3 tries,
   * so the PIN is remembered and the failure is terminal (no recovery step sends it again).
   * Neither the status nor the error carries the PIN: the session masks it in command text.
   */
  private async submitPin(context: SetupContext, pin: string): Promise<void> {
    try {
      await context.session.execute(`AT+CPIN="${pin}"`, { timeoutMs: this.timing.commandTimeoutMs });
    } catch (error) {
      this.unconfirmedPin = pin;
      const wrong = isGatewayError(error, ErrorCode.CmeError) && error.modemCode === 16;
      const answer = isGatewayError(error, ErrorCode.AtTimeout) ? 'no answer' : describeError(error);
      this.setStatus(
        'sim-pin-wrong',
        wrong
          ? 'The SIM rejected the PIN. It is not retried automatically: a SIM locks after 3 wrong PINs.'
          : `PIN refused or unknown answer (${answer}). It is not sent again automatically: a SIM ` +
              'locks after 3 wrong PINs; enter the PIN for this device.',
      );
      this.logger.warn(wrong ? 'the SIM rejected the PIN' : 'PIN refused or unknown answer', {
        error: describeError(error),
      });
      throw new GatewayError(
        ErrorCode.SimPinWrong,
        wrong ? 'the SIM rejected the PIN' : `PIN refused or unknown answer (${answer})`,
        { modemCode: isGatewayError(error) ? error.modemCode : undefined, cause: error },
      );
    }
    this.unconfirmedPin = undefined;
    this.logger.info('SIM unlocked');
  }

  private handleUnsolicited(session: ModemSession, code: UnsolicitedCode): void {
    this.touch();
    if (this.setup && this.incoming.handleUnsolicited(session, this.setup, code)) return;
    if (this.ussdChannel.handleUnsolicited(code, this.quirks.ussdTextForm)) return;
    if (this.calls.handleUnsolicited(code)) return;
    if (isRegistrationDomain(code.name)) {
      const registration = parseRegistration(code.line, 'unsolicited', code.name);
      if (registration) {
        this.health.registrations[code.name] = registration.stat;
        if (this.inService()) this.applyRegistration();
        this.emitChange();
      }
      return;
    }
    if (this.quirks.noise.includes(code.name)) {
      this.logger.debug('modem status chatter', { line: code.line });
      return;
    }
    this.logger.info('unsolicited code', { line: code.line });
  }

  private handleClosed(session: ModemSession, error?: Error): void {
    if (this.session !== session) return;
    this.detach();
    this.session = undefined;
    this.stopTimers();
    this.calls.reset();
    if (this.stopped) return;
    this.logger.warn('modem disconnected', { error: error ? describeError(error) : undefined });
    this.setStatus('offline', 'The modem was disconnected; waiting for it to come back.');
    void this.recover('reopen');
  }

  /**
   * Escalates until the modem answers again: probe → re-init → reopen, reopening with capped
   * exponential back-off. Only one recovery runs at a time.
   */
  private async recover(firstStep: RecoveryStep, alreadyFailedOnce = false): Promise<void> {
    if (this.recovering || this.stopped) return;
    this.recovering = true;
    this.stopTimers();
    if (this.inService()) this.setStatus('recovering', 'The modem stopped answering; recovering.');
    let step = firstStep;
    let failures = alreadyFailedOnce ? 1 : 0;
    try {
      while (!this.stopped) {
        if (step === 'reopen' && failures > 0) {
          await sleep(
            this.clock,
            backoffDelay(failures - 1, this.timing.backoffInitialMs, this.timing.backoffMaxMs),
          );
          if (this.stopped) return;
        }
        try {
          await this.recoveryStep(step);
          return;
        } catch (error) {
          if (this.isTerminal(error)) return;
          this.logger.warn(`recovery step ${step} failed`, { error: describeError(error) });
          if (step === 'probe') step = 'reinit';
          else if (step === 'reinit') step = 'reopen';
          else {
            failures++;
            this.markUnreachable(error);
          }
        }
      }
    } finally {
      this.recovering = false;
    }
  }

  private async recoveryStep(step: RecoveryStep): Promise<void> {
    const session = this.session;
    if (step === 'reopen' || !session) {
      await this.connect();
      return;
    }
    if (step === 'probe') {
      await session.execute('AT', { timeoutMs: this.timing.probeTimeoutMs });
      if (this.setup) {
        this.resume(session, this.setup);
        return;
      }
    }
    await this.initialize(session);
  }

  /** A wrong PIN needs the user; nothing automatic may retry it. */
  private isTerminal(error: unknown): boolean {
    return isGatewayError(error, ErrorCode.SimPinWrong);
  }

  private markUnreachable(error: unknown): void {
    const portMissing =
      isGatewayError(error, ErrorCode.TransportOpenFailed) ||
      isGatewayError(error, ErrorCode.TransportClosed);
    if (isGatewayError(error, ErrorCode.ModemNotReady)) {
      this.setStatus('recovering', `The modem answers but is not usable: ${describeError(error)}; retrying.`);
    } else if (portMissing || !this.session) {
      this.setStatus('offline', `Modem not reachable: ${describeError(error)}`);
    } else {
      this.setStatus('recovering', `Modem not answering: ${describeError(error)}`);
    }
  }

  /**
   * Indications only make receiving faster: the storage is listed on a timer whether or not the
   * modem promised +CMTI/+CDSI, because a multi-port modem may send them to another interface.
   */
  private startTimers(): void {
    this.stopTimers();
    if (this.stopped) return;
    this.healthTimer = this.clock.setTimer(() => void this.healthRound(), this.timing.healthIntervalMs);
    this.schedulePoll(this.timing.pollIntervalMs);
  }

  private stopTimers(): void {
    this.healthTimer?.cancel();
    this.healthTimer = undefined;
    this.pollTimer?.cancel();
    this.pollTimer = undefined;
    this.pollDueAt = undefined;
    this.pollRequested = false;
  }

  private schedulePoll(delayMs: number): void {
    this.pollTimer?.cancel();
    this.pollDueAt = this.clock.now() + delayMs;
    this.pollTimer = this.clock.setTimer(() => void this.pollRound(), delayMs);
  }

  /** Brings the next storage poll forward to `pollAfterSendMs` from now, unless it is due sooner. */
  private pollSoon(): void {
    if (!this.inService()) return;
    if (this.pollDueAt === undefined) {
      this.pollRequested = true;
      return;
    }
    if (this.pollDueAt <= this.clock.now() + this.timing.pollAfterSendMs) return;
    this.schedulePoll(this.timing.pollAfterSendMs);
  }

  private async healthRound(): Promise<void> {
    this.healthTimer = undefined;
    const session = this.session;
    if (!session || !this.inService()) return;
    try {
      await session.execute('AT', { timeoutMs: this.timing.probeTimeoutMs });
      this.health = await readHealth(this.context(session), this.quirks.cpinWithoutOk);
      await this.readStorageUse(session);
      if (this.inService()) this.applyRegistration();
      this.emitChange();
    } catch (error) {
      this.logger.warn('health check failed', { error: describeError(error) });
      if (isGatewayError(error, ErrorCode.AtTimeout)) {
        void this.recover('probe');
        return;
      }
    }
    if (this.inService() && !this.healthTimer) {
      this.healthTimer = this.clock.setTimer(() => void this.healthRound(), this.timing.healthIntervalMs);
    }
  }

  /**
   * `AT+CPMS?`: how full each message memory is. A memory that receives (<mem3>) and is nearly
   * full is emptied now rather than at the next poll: a full SIM makes the network keep, and
   * after a while drop, what it was to deliver.
   */
  private async readStorageUse(session: ModemSession): Promise<void> {
    const use = await optional(this.context(session), 'AT+CPMS?', parseStorageUse);
    if (!use) return;
    this.storageUse = use;
    if (storageNeedsEmptying(use)) {
      this.logger.warn('message storage nearly full; reading it now', { storage: use });
      this.pollSoon();
    }
  }

  private async pollRound(): Promise<void> {
    this.pollTimer = undefined;
    this.pollDueAt = undefined;
    const session = this.session;
    const setup = this.setup;
    if (!session || !setup || !this.inService()) return;
    await this.incoming.refresh(session, setup).catch((error: unknown) => {
      this.logger.warn('polling modem storage failed', { error: describeError(error) });
    });
    const soon = this.pollRequested;
    this.pollRequested = false;
    if (this.inService() && !this.pollTimer) {
      this.schedulePoll(soon ? this.timing.pollAfterSendMs : this.timing.pollIntervalMs);
    }
  }

  private async closeSession(): Promise<void> {
    const session = this.session;
    this.detach();
    this.session = undefined;
    if (session) await session.close().catch(() => undefined);
  }

  private detach(): void {
    for (const unsubscribe of this.detachSession) unsubscribe();
    this.detachSession = [];
  }

  private touch(): void {
    this.lastSeen_ = this.clock.now();
  }

  private setStatus(status: ModemStatus, detail?: string): void {
    if (this.status_ === status && this.statusDetail === detail) return;
    if (this.status_ !== status)
      this.logger.info(`status ${this.status_} → ${status}`, detail ? { detail } : undefined);
    this.status_ = status;
    this.statusDetail = detail;
    this.emitChange();
  }

  private emitChange(): void {
    for (const listener of this.listeners) listener();
  }
}

function isRegistrationDomain(name: string): name is RegistrationDomain {
  return (RegistrationDomains as readonly string[]).includes(name);
}
