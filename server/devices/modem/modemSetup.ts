import { type Clock, sleep } from '../../clock/clock.js';
import { ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import {
  chooseCnmiSettings,
  parseCnmiOptions,
  parseCnum,
  parseCpmsOptions,
  parseCsca,
  parseCscs,
  parseCscsOptions,
  parseIccid,
  parseIdentity,
} from '../at/parsers.js';
import type { PortRole } from '../transport/portLayouts.js';
import { preferredCharacterSet } from './characterSet.js';
import type { ModemSession } from './modemSession.js';
import type { QuirkProfile } from './quirks.js';

/**
 * The steps of bringing a modem up, each a small function over the session. The driver
 * (`modemDriver.ts`) sequences them and owns the status.
 */
export interface ModemIdentity {
  manufacturer?: string;
  model?: string;
  revision?: string;
  imei?: string;
}

export interface SimIdentity {
  iccid?: string;
  phoneNumber?: string;
  smsc?: string;
}

/** How the modem tells us about new messages and status reports, as negotiated. */
export interface MessagingSetup {
  /** Storage read and deleted (<mem1>), e.g. "SM"; undefined: the modem's default. */
  storage?: string;
  /**
   * Every memory where the modem may keep what the network delivered, listed on each poll:
   * messages ("SM", "ME") and status reports ("SR"). A modem that sends its indications to
   * another USB interface, or none at all, still has them there. Empty: the default only.
   */
  polledStorages: string[];
  /** +CNMI <mt>: 1 → +CMTI, 2 → +CMT; undefined when there are no indications (polling). */
  newMessageIndication?: 1 | 2;
  /** +CNMI <ds>: 1 → +CDS, 2 → +CDSI; undefined: no status report indications. */
  statusReportIndication?: 1 | 2;
  /** TS 27.005 §3.2.1 +CSMS <service> 1: +CMT / +CDS must be acknowledged with AT+CNMA. */
  acknowledgeDirect: boolean;
}

export interface SetupContext {
  session: ModemSession;
  clock: Clock;
  commandTimeoutMs: number;
}

export interface SyncTiming {
  attempts: number;
  /** Timeout of each `AT`. */
  timeoutMs: number;
  /** The quiet wait that stands in for resynchronising on a modem that never answers the probe. */
  quietMs: number;
}

/** What may answer a synchronising `AT` while the line still carries a dead process's traffic. */
const staleAnswerCodes: ReadonlySet<ErrorCode> = new Set([
  ErrorCode.AtTimeout,
  ErrorCode.AtError,
  ErrorCode.CmsError,
  ErrorCode.CmeError,
]);

/**
 * Takes over the line, then tries `AT` until the modem answers it. A modem may still be
 * answering a process that died (the `OK` to the ESC that ends its PDU input, an `ERROR` or
 * `+CMS ERROR` for its `AT+CMGS`); taken for ours, every later command would get its
 * predecessor's answer — a send refused with another command's error. So `cancelPendingInput`
 * writes ESC and resynchronises by sequence (a probe whose answer nobody else can have caused,
 * see `at/resyncMachine.ts`): what the dead process was owed comes before it and is discarded.
 * The first bytes after opening a port are often lost: an `AT` that times out is tried again
 * (the session resynchronises before each try), and so is one that gets a stale refusal, which
 * only a modem that never answered the probe (and so got a quiet wait instead) can still show.
 */
export async function synchronise(context: SetupContext, timing: SyncTiming): Promise<void> {
  await context.session.cancelPendingInput(timing.quietMs);
  for (let attempt = 1; ; attempt++) {
    try {
      await context.session.execute('AT', { timeoutMs: timing.timeoutMs });
      return;
    } catch (error) {
      if (!isGatewayError(error) || !staleAnswerCodes.has(error.code) || attempt >= timing.attempts)
        throw error;
    }
  }
}

export async function readModemIdentity(context: SetupContext): Promise<ModemIdentity> {
  const identity: ModemIdentity = {};
  const manufacturer = await optional(context, 'AT+CGMI', (lines) => parseIdentity(lines, '+CGMI'));
  const model = await optional(context, 'AT+CGMM', (lines) => parseIdentity(lines, '+CGMM'));
  const revision = await optional(context, 'AT+CGMR', (lines) => parseIdentity(lines, '+CGMR'));
  const imei = await optional(context, 'AT+CGSN', (lines) => parseIdentity(lines, '+CGSN'));
  if (manufacturer) identity.manufacturer = manufacturer;
  if (model) identity.model = model;
  if (revision) identity.revision = revision;
  if (imei) identity.imei = imei;
  return identity;
}

/**
 * The TE character set (TS 27.007 §5.5 +CSCS): `preferredCharacterSet` when the modem offers
 * it; then the set in use, read back, which every text field is decoded by (characterSet.ts).
 * Undefined when the modem does not say.
 */
export async function chooseCharacterSet(context: SetupContext): Promise<string | undefined> {
  const offered = (await optional(context, 'AT+CSCS=?', parseCscsOptions)) ?? [];
  if (offered.includes(preferredCharacterSet)) {
    await optional(context, `AT+CSCS="${preferredCharacterSet}"`, () => true);
  }
  return optional(context, 'AT+CSCS?', parseCscs);
}

/** ICCID (three spellings across vendors), own number and service centre; all optional. */
export async function readSimIdentity(context: SetupContext): Promise<SimIdentity> {
  const sim: SimIdentity = {};
  for (const command of ['AT+CCID', 'AT^ICCID?', 'AT+QCCID']) {
    const iccid = await optional(context, command, parseIccid);
    if (iccid) {
      sim.iccid = iccid;
      break;
    }
  }
  const phoneNumber = await optional(context, 'AT+CNUM', (lines) => parseCnum(lines)[0]?.number);
  if (phoneNumber) sim.phoneNumber = phoneNumber;
  const smsc = await optional(context, 'AT+CSCA?', (lines) => parseCsca(lines)?.address);
  if (smsc) sim.smsc = smsc;
  return sim;
}

/** Storage preference: the SIM first (it survives moving the SIM), then the modem's memory. */
const storagePreference = ['SM', 'ME', 'MT'];

/**
 * PDU mode, message storage and new-message indications (TS 27.005 §3.2.3, §3.2.2, §3.4.1).
 * Storage commands answer "SIM busy" (+CMS ERROR 314 / +CME ERROR 14) for a few seconds after
 * the PIN was accepted, so they are retried while the SIM initialises.
 */
export async function configureMessaging(
  context: SetupContext,
  quirks: QuirkProfile,
): Promise<MessagingSetup> {
  const { session } = context;
  await session.execute('AT+CMGF=0', { timeoutMs: context.commandTimeoutMs });
  const setup: MessagingSetup = { acknowledgeDirect: false, polledStorages: [] };
  const selected = await whileSimBusy(context, () => selectStorage(context));
  if (selected.storage) setup.storage = selected.storage;
  setup.polledStorages = selected.polled;

  const service = await optional(context, 'AT+CSMS?', (lines) => {
    const match = lines.join('\n').match(/\+CSMS:\s*(\d+)/);
    return match ? Number(match[1]) : undefined;
  });
  setup.acknowledgeDirect = service === 1;

  if (quirks.newMessages === 'polling') return setup;
  const options = await optional(context, 'AT+CNMI=?', (lines) => parseCnmiOptions(lines));
  if (!options) return setup;
  const chosen = chooseCnmiSettings(options);
  chosen.mode = quirks.cnmiModes.find((mode) => options.mode.includes(mode)) ?? chosen.mode;
  const command = `AT+CNMI=${chosen.mode},${chosen.mt},${chosen.bm},${chosen.ds},${chosen.bfr}`;
  const accepted = await optional(context, command, () => true);
  if (!accepted) return setup;
  if (chosen.mt === 1 || chosen.mt === 2) setup.newMessageIndication = chosen.mt;
  if (chosen.ds === 1 || chosen.ds === 2) setup.statusReportIndication = chosen.ds;
  return setup;
}

async function selectStorage(context: SetupContext): Promise<{ storage?: string; polled: string[] }> {
  const options = await optional(context, 'AT+CPMS=?', (lines) => parseCpmsOptions(lines), true);
  if (!options) return { polled: [] };
  const pick = (allowed: string[]) => storagePreference.find((memory) => allowed.includes(memory));
  const memories = [pick(options.mem1), pick(options.mem2), pick(options.mem3)];
  // Wavecom lists two memory lists and rejects a third parameter: try 3, then 2, then 1.
  for (let count = 3; count >= 1; count--) {
    const chosen = memories.slice(0, count);
    if (chosen.some((memory) => memory === undefined)) continue;
    const command = `AT+CPMS=${chosen.map((memory) => `"${memory}"`).join(',')}`;
    if (await optional(context, command, () => true, true)) {
      const storage = chosen[0];
      return storage === undefined
        ? { polled: [] }
        : { storage, polled: memoriesToPoll(options.mem1, storage) };
    }
  }
  return { polled: [] };
}

/**
 * The readable memories (<mem1>, TS 27.005 §3.2.2) that can hold received messages or status
 * reports, the selected one first. "MT" is "SM" and "ME" together, so with it neither is
 * listed again (no message is seen twice).
 */
function memoriesToPoll(readable: readonly string[], selected: string): string[] {
  const covered = selected === 'MT' ? ['MT', 'SM', 'ME'] : [selected];
  const others = ['SM', 'ME', 'SR'].filter(
    (memory) => !covered.includes(memory) && readable.includes(memory),
  );
  return [selected, ...others];
}

async function whileSimBusy<T>(context: SetupContext, step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= 10 || !isSimBusy(error)) throw error;
      await sleep(context.clock, 2_000);
    }
  }
}

/**
 * Asks a multi-port modem to send its unsolicited codes (+CMTI, +CDSI, +CREG…) to our port.
 * Not every firmware knows the command; polling the storage covers those.
 */
export async function routeUnsolicitedCodes(
  context: SetupContext,
  quirks: QuirkProfile,
  portRole: PortRole | undefined,
  logger: Logger,
): Promise<void> {
  const routing = quirks.urcRouting?.(portRole);
  if (!routing) return;
  if (routing.query && routing.already) {
    const pattern = routing.already;
    const set = await optional(context, routing.query, (lines) => lines.some((line) => pattern.test(line)));
    if (set) return;
  }
  if (await optional(context, routing.command, () => true)) {
    logger.info('unsolicited codes routed to this port', { command: routing.command });
  }
}

/** TS 27.005 §3.2.5 +CMS ERROR 314 and TS 27.007 §9.2.1 +CME ERROR 14: "SIM busy". */
export function isSimBusy(error: unknown): boolean {
  return (
    (isGatewayError(error, ErrorCode.CmsError) && error.modemCode === 314) ||
    (isGatewayError(error, ErrorCode.CmeError) && error.modemCode === 14)
  );
}

/**
 * Runs a command whose failure is not fatal (the modem does not support it): an ERROR reply
 * gives undefined. Timeouts and a closed session still throw, since those mean the modem is gone.
 * With `rethrowBusy`, "SIM busy" is thrown too so the caller can wait and retry.
 */
export async function optional<T>(
  context: SetupContext,
  command: string,
  parse: (lines: string[]) => T | undefined,
  rethrowBusy = false,
): Promise<T | undefined> {
  try {
    const response = await context.session.execute(command, { timeoutMs: context.commandTimeoutMs });
    return parse(response.lines);
  } catch (error) {
    if (rethrowBusy && isSimBusy(error)) throw error;
    if (
      isGatewayError(error, ErrorCode.AtError) ||
      isGatewayError(error, ErrorCode.CmeError) ||
      isGatewayError(error, ErrorCode.CmsError)
    ) {
      return undefined;
    }
    throw error;
  }
}
