import type { RadioTechnology, SignalInfo } from '../../contract/domain/device.js';
import {
  codeOfSmsService,
  type SmsServicePreference,
  smsServiceOfCode,
} from '../../contract/domain/smsServicePreference.js';
import { ErrorCode, GatewayError, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import {
  parseCfun,
  parseCops,
  parseCpin,
  parseCsq,
  parseOfferedValues,
  parseRegistration,
  parseSingleValue,
} from '../at/parsers.js';
import { textFromCharacterSet } from './characterSet.js';
import { optional, type SetupContext } from './modemSetup.js';
import {
  RegistrationDomains,
  type RegistrationStats,
  technologiesOfWs46,
  technologyOfAct,
} from './networkState.js';

/** What a health round learns; every field is absent when the modem did not say. */
export interface HealthReading {
  signal?: SignalInfo;
  /** <stat> per domain that answered (+CREG, +CGREG, +CEREG). */
  registrations: RegistrationStats;
  /** The access technology in use, from the registration <AcT> or +COPS. */
  radio?: RadioTechnology;
  operator?: string;
  simState?: string;
  /** The radio's power (+CFUN); absent when the modem does not say. */
  radioPower?: RadioPower;
}

/** `off`: +CFUN <fun> 0 (minimum), 2 or 3 (one direction off) or 4 (flight mode), TS 27.007 §8.2. */
export type RadioPower = { on: true } | { on: false; fun: number };

/** Levels 5 and up are each vendor's own (Telit's 5 is full power with power saving): not judged. */
const radioOffLevels: ReadonlySet<number> = new Set([0, 2, 3, 4]);

/** Quectel documents up to 15 s for AT+CFUN to answer. */
const radioSwitchTimeoutMs = 15_000;

/**
 * Reads the radio's power (`AT+CFUN?`) and, when it is off — a module left in flight mode, which
 * SIMCom and Quectel keep across power cycles, never registers — switches it on with
 * `AT+CFUN=1` and reads it again. Undefined when the modem does not answer in the standard form.
 */
export async function switchRadioOn(context: SetupContext, logger: Logger): Promise<RadioPower | undefined> {
  const read = async (): Promise<RadioPower | undefined> => {
    const fun = await optional(context, 'AT+CFUN?', parseCfun);
    if (fun === undefined) return undefined;
    return radioOffLevels.has(fun) ? { on: false, fun } : { on: true };
  };
  const before = await read();
  if (!before || before.on) return before;
  const switched = await optional(
    { ...context, commandTimeoutMs: Math.max(context.commandTimeoutMs, radioSwitchTimeoutMs) },
    'AT+CFUN=1',
    () => true,
  );
  const after = await read();
  if (after?.on) logger.info('the radio was off; switched it on', { cfun: before.fun });
  else
    logger.warn('the radio is off and did not switch on', { cfun: before.fun, refused: switched !== true });
  return after;
}

/**
 * One health round: `AT+CFUN?` (switching the radio on when it is off), `AT+CSQ`, `AT+CREG?`,
 * `AT+CGREG?`, `AT+CEREG?`, `AT+COPS?`, `AT+CPIN?`. A command the modem refuses leaves its
 * field empty (a 3G stick has no +CEREG); a timeout propagates, because it means the modem
 * stopped answering. The operator's name is decoded by the modem's character set.
 */
export async function readHealth(
  context: SetupContext,
  modem: { cpinWithoutOk: boolean; charset: string | undefined },
  logger: Logger,
): Promise<HealthReading> {
  const reading: HealthReading = { registrations: {} };
  const radioPower = await switchRadioOn(context, logger);
  if (radioPower) reading.radioPower = radioPower;
  const csq = await optional(context, 'AT+CSQ', parseCsq);
  if (csq) {
    reading.signal = { rssi: csq.rssi, bars: csq.bars };
    if (csq.dbm !== undefined) reading.signal.dbm = csq.dbm;
  }
  const technologies: RadioTechnology[] = [];
  for (const domain of RegistrationDomains) {
    const registration = await optional(context, `AT${domain}?`, (lines) => {
      for (const line of lines) {
        const parsed = parseRegistration(line, 'query', domain);
        if (parsed) return parsed;
      }
      return undefined;
    });
    if (!registration) continue;
    reading.registrations[domain] = registration.stat;
    const technology = registration.act === undefined ? undefined : technologyOfAct(registration.act);
    if (technology && registration.registered) technologies.push(technology);
  }
  const cops = await optional(context, 'AT+COPS?', parseCops);
  if (cops?.operator) reading.operator = textFromCharacterSet(cops.operator, modem.charset);
  const radio = technologies.at(-1) ?? (cops?.act === undefined ? undefined : technologyOfAct(cops.act));
  if (radio) reading.radio = radio;
  const cpin = await readPinState(context, modem.cpinWithoutOk);
  if (cpin) reading.simState = cpin;
  return reading;
}

/** `AT+CPIN?`; Wavecom never sends the final OK, so its +CPIN line completes the command. */
export async function readPinState(
  context: SetupContext,
  cpinWithoutOk: boolean,
): Promise<string | undefined> {
  try {
    const options = cpinWithoutOk
      ? { timeoutMs: context.commandTimeoutMs, completeOnLine: /^\+CPIN:/i }
      : { timeoutMs: context.commandTimeoutMs };
    const response = await context.session.execute('AT+CPIN?', options);
    return parseCpin(response.lines)?.code;
  } catch (error) {
    // TS 27.007 §9.2.1 +CME ERROR 10: SIM not inserted.
    if (isGatewayError(error, ErrorCode.CmeError) && error.modemCode === 10) return 'NOT INSERTED';
    throw error;
  }
}

/** What a modem can do on the radio side, read once per initialisation. */
export interface RadioCapabilities {
  /** From AT+WS46=? (TS 27.007 §5.9); absent when the modem does not say. */
  supported?: RadioTechnology[];
  /** AT+CGSMS? and the values AT+CGSMS=? offers (TS 27.007 §10.1.20). */
  smsService?: SmsServicePreference;
  smsServiceOptions: SmsServicePreference[];
}

export async function readRadioCapabilities(context: SetupContext): Promise<RadioCapabilities> {
  const capabilities: RadioCapabilities = { smsServiceOptions: [] };
  const ws46 = await optional(context, 'AT+WS46=?', (lines) => parseOfferedValues(lines, '+WS46'));
  const supported = ws46 === undefined ? undefined : technologiesOfWs46(ws46);
  if (supported) capabilities.supported = supported;
  const options = await optional(context, 'AT+CGSMS=?', (lines) => parseOfferedValues(lines, '+CGSMS'));
  capabilities.smsServiceOptions = (options ?? []).flatMap((code) => smsServiceOfCode(code) ?? []);
  if (capabilities.smsServiceOptions.length > 0) {
    const current = await optional(context, 'AT+CGSMS?', (lines) => parseSingleValue(lines, '+CGSMS'));
    const service = current === undefined ? undefined : smsServiceOfCode(current);
    if (service) capabilities.smsService = service;
  }
  return capabilities;
}

/**
 * Sets the SMS domain preference (AT+CGSMS=<service>, TS 27.007 §10.1.20) if the modem offers
 * it, and returns the capabilities read back (what the modem now says, not what was asked).
 */
export async function chooseSmsService(
  context: SetupContext,
  radio: RadioCapabilities,
  preference: SmsServicePreference,
  deviceId: string,
): Promise<RadioCapabilities> {
  if (!radio.smsServiceOptions.includes(preference)) {
    throw new GatewayError(
      ErrorCode.ValidationFailed,
      `modem ${deviceId} does not offer the SMS service "${preference}"`,
      { field: 'service' },
    );
  }
  await context.session.execute(`AT+CGSMS=${codeOfSmsService(preference)}`, {
    timeoutMs: context.commandTimeoutMs,
  });
  return readRadioCapabilities(context);
}
