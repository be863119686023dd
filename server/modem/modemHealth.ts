import { parseCops, parseCpin, parseCsq, parseRegistration } from '../at/parsers.js';
import { ErrorCode, isGatewayError } from '../errors/gatewayError.js';
import type { ModemDetails, SignalInfo } from './deviceDirectory.js';
import { optional, type SetupContext } from './modemSetup.js';

/** What a health round learns; every field is absent when the modem did not say. */
export interface HealthReading {
  signal?: SignalInfo;
  registration?: NonNullable<ModemDetails['registration']>;
  operator?: string;
  simState?: string;
}

/**
 * One health round: `AT+CSQ`, `AT+CREG?`, `AT+COPS?`, `AT+CPIN?`. A command the modem refuses
 * leaves its field empty; a timeout propagates, because it means the modem stopped answering.
 */
export async function readHealth(context: SetupContext, cpinWithoutOk: boolean): Promise<HealthReading> {
  const reading: HealthReading = {};
  const csq = await optional(context, 'AT+CSQ', parseCsq);
  if (csq) {
    reading.signal = { rssi: csq.rssi, bars: csq.bars };
    if (csq.dbm !== undefined) reading.signal.dbm = csq.dbm;
  }
  const creg = await optional(context, 'AT+CREG?', (lines) => {
    for (const line of lines) {
      const parsed = parseRegistration(line, 'query');
      if (parsed) return parsed;
    }
    return undefined;
  });
  if (creg) reading.registration = registrationName(creg.stat);
  const cops = await optional(context, 'AT+COPS?', parseCops);
  if (cops?.operator) reading.operator = cops.operator;
  const cpin = await readPinState(context, cpinWithoutOk);
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

/** TS 27.007 §7.2 <stat>. */
export function registrationName(stat: number): NonNullable<ModemDetails['registration']> {
  switch (stat) {
    case 0:
      return 'not-registered';
    case 1:
    case 6:
      return 'home';
    case 2:
      return 'searching';
    case 3:
      return 'denied';
    case 5:
    case 7:
      return 'roaming';
    default:
      return 'unknown';
  }
}
