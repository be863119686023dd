/**
 * Keeps the SMS relay link to the SMSC open between sends where the modem offers `+CMMS`, more
 * messages to send (3GPP TS 27.005 §3.5.6). Opening the link costs seconds on a real network;
 * with `+CMMS` 1 or 2 the modem holds it for 1-5 s (its own choice) after each send's response,
 * so back-to-back sends pay that set-up once. Mode 2 stays in force, so bring-up sets it once;
 * mode 1 falls back to 0 whenever the link closes, so it is armed again before each batch.
 *
 * Android's radio layer does the same for every part but the last of a multipart message
 * (`RIL_REQUEST_SEND_SMS_EXPECT_MORE`, sent as `AT+CMMS=1`). A modem that answers ERROR to
 * `AT+CMMS=?` sends without it, as before.
 */
import type { Clock } from '../../clock/clock.js';
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { ModemSession } from './modemSession.js';
import { optional, type SetupContext } from './modemSetup.js';

export type RelayLinkMode = 1 | 2;

/**
 * The shortest hold §3.5.6 allows ("1-5 seconds, the exact value is up to ME implementation"):
 * a send that starts sooner after the previous answer finds the link still open on any modem.
 */
export const SHORTEST_LINK_HOLD_MS = 1000;

/** What the modem's figures show of it (`ModemDetails.relayLink`). */
export interface RelayLinkFigures {
  mode: RelayLinkMode;
  /** Parts sent within the shortest hold after the previous answer, with `+CMMS` in force. */
  keptLinkSends: number;
}

/** `+CMMS: (0-2)`, `+CMMS: (0,1,2)` or `+CMMS: (0,1)`: the <n> values listed. */
export function parseCmmsModes(lines: readonly string[]): number[] | undefined {
  const line = lines.find((candidate) => candidate.startsWith('+CMMS:'));
  const list = line?.match(/\(([\d,\s-]*)\)/)?.[1];
  if (list === undefined) return undefined;
  const modes: number[] = [];
  for (const item of list.split(',')) {
    const range = item.trim().match(/^(\d)(?:-(\d))?$/);
    if (!range) continue;
    const first = Number(range[1]);
    const last = Number(range[2] ?? range[1]);
    for (let mode = first; mode <= last; mode++) modes.push(mode);
  }
  return modes;
}

/**
 * Bring-up: the mode to send with, or undefined without `+CMMS`. Mode 2 is set here; a modem
 * that lists 2 but refuses it is tried with 1.
 */
export async function chooseRelayLinkMode(context: SetupContext): Promise<RelayLinkMode | undefined> {
  const modes = await optional(context, 'AT+CMMS=?', parseCmmsModes);
  if (!modes) return undefined;
  if (modes.includes(2) && (await optional(context, 'AT+CMMS=2', () => true))) return 2;
  return modes.includes(1) ? 1 : undefined;
}

export interface RelayLinkKeeperOptions {
  clock: Clock;
  logger: Logger;
  commandTimeoutMs: number;
}

/** One modem's use of the link across its sessions: the mode of this bring-up and the count. */
export class RelayLinkKeeper {
  private mode?: RelayLinkMode;
  /** When the modem last answered a send, on the clock; undefined when no link can be open. */
  private lastAnswerAt?: number;
  private keptLinkSends = 0;

  constructor(private readonly options: RelayLinkKeeperOptions) {}

  /** After each bring-up (a reset modem forgets `+CMMS`; bring-up chose again). */
  configured(mode: RelayLinkMode | undefined): void {
    this.mode = mode;
    this.lastAnswerAt = undefined;
  }

  figures(): RelayLinkFigures | undefined {
    return this.mode === undefined ? undefined : { mode: this.mode, keptLinkSends: this.keptLinkSends };
  }

  /**
   * Before each part's `AT+CMGS`: counts a part that finds the link open, and arms mode 1 at
   * the start of a batch. A modem that refuses the arming sends without it; a silent one fails
   * the `AT+CMGS` that follows, which says what became of the part.
   */
  async beforePart(session: ModemSession): Promise<void> {
    if (this.mode === undefined) return;
    const { clock, logger, commandTimeoutMs } = this.options;
    const linkOpen =
      this.lastAnswerAt !== undefined && clock.now() - this.lastAnswerAt <= SHORTEST_LINK_HOLD_MS;
    if (linkOpen) {
      this.keptLinkSends++;
      return;
    }
    if (this.mode === 2) return;
    try {
      await session.execute('AT+CMMS=1', { timeoutMs: commandTimeoutMs });
    } catch (error) {
      logger.debug('AT+CMMS=1 failed; sending without it', { error: describeError(error) });
    }
  }

  /** The modem answered a part (accepted or refused by the network): the link is held from now. */
  partAnswered(): void {
    this.lastAnswerAt = this.options.clock.now();
  }

  /** A part went unanswered: whatever the link does now is unknown, so the next batch re-arms. */
  partLost(): void {
    this.lastAnswerAt = undefined;
  }
}
