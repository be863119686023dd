/**
 * The SMS relay-protocol link (CM/RP connection of TS 24.011) between the simulated modem and
 * its SMSC, and `+CMMS` ("more messages to send", 3GPP TS 27.005 §3.5.6) that keeps it open
 * between sends.
 *
 * §3.5.6 defines <n>:
 * - 0: disabled: the link is released after each send, so every send pays its set-up;
 * - 1: keep the link open until the time between the response of the latest message send
 *   command (+CMGS, +CMSS, etc.) and the next send command exceeds 1-5 seconds (the exact value
 *   is up to the ME); the ME then closes the link and the TA switches <n> back to 0 by itself;
 * - 2: the same, except that <n> stays 2 after the link closed.
 * Test form `+CMMS: (list of supported <n>s)`, read form `+CMMS: <n>`, set form `+CMMS=[<n>]`
 * (an omitted <n> is 0), failures as `+CMS ERROR`. The Cinterion EHS6 AT Command Set §12.9 and
 * Telit's m2mb SMS guide (M2MB_SMS_SET_MORE_MSG_TO_SEND: "exceeds 5 seconds, the link is closed
 * but the functionality remains enabled") describe the same behaviour.
 *
 * The link's clock runs on the simulator's `Clock`, so the hold expires by itself between sends
 * (a link that closed while the host was idle); nothing here needs a timer.
 */
import type { Clock } from '../../clock/clock.js';

/** The <n> values of TS 27.005 §3.5.6. */
export const MoreMessagesModes = [0, 1, 2] as const;
export type MoreMessagesMode = (typeof MoreMessagesModes)[number];

export interface RelayLinkOptions {
  /** Opening the link before a send when it is closed, ms (default 0). */
  setupMs?: number;
  /**
   * How long the link stays open after a send's response while <n> is 1 or 2, ms (default 3000;
   * §3.5.6 leaves 1-5 s to the ME, a time-scaled benchmark may set less).
   */
  holdMs?: number;
  /** The <n> values `AT+CMMS=?` lists (default all three); empty: no `+CMMS` at all (ERROR). */
  modes?: readonly MoreMessagesMode[];
}

export const DEFAULT_LINK_HOLD_MS = 3000;

/** What the link did so far, for tests and benchmarks. */
export interface RelayLinkCounts {
  /** Sends that opened the link first. */
  setups: number;
  /** Sends that found it open. */
  keptOpen: number;
}

export class RelayLink {
  private mode_: MoreMessagesMode = 0;
  /** Until when the open link waits for the next send command; undefined while closed. */
  private openUntil?: number;
  private readonly counts_: RelayLinkCounts = { setups: 0, keptOpen: 0 };
  private readonly setupMs: number;
  private readonly holdMs: number;
  readonly modes: readonly MoreMessagesMode[];

  constructor(
    private readonly clock: Clock,
    options: RelayLinkOptions = {},
  ) {
    this.setupMs = options.setupMs ?? 0;
    this.holdMs = options.holdMs ?? DEFAULT_LINK_HOLD_MS;
    this.modes = options.modes ?? MoreMessagesModes;
  }

  /** The <n> in force now (a mode-1 link that closed meanwhile has switched it to 0). */
  get mode(): MoreMessagesMode {
    this.settle(this.clock.now());
    return this.mode_;
  }

  /** True while the link is open now. */
  get isOpen(): boolean {
    this.settle(this.clock.now());
    return this.openUntil !== undefined;
  }

  get counts(): Readonly<RelayLinkCounts> {
    return this.counts_;
  }

  /** `AT+CMMS=<n>`; false for a value the modem does not list. 0 releases an open link. */
  setMode(mode: number): boolean {
    const supported = this.modes.find((candidate) => candidate === mode);
    if (supported === undefined) return false;
    this.settle(this.clock.now());
    this.mode_ = supported;
    if (supported === 0) this.openUntil = undefined;
    return true;
  }

  /** A power cycle: <n> back to 0, the link gone. */
  reset(): void {
    this.mode_ = 0;
    this.openUntil = undefined;
  }

  /**
   * A send command came at `commandAt`: the set-up it waits for first, 0 on an open link. The
   * link counts as busy until `answered`.
   */
  setupFor(commandAt: number): number {
    this.settle(commandAt);
    if (this.openUntil !== undefined) {
      this.counts_.keptOpen++;
      this.openUntil = Number.POSITIVE_INFINITY;
      return 0;
    }
    this.counts_.setups++;
    this.openUntil = Number.POSITIVE_INFINITY;
    return this.setupMs;
  }

  /** The send's response went out: the link is held for the next one, or released with <n> 0. */
  answered(): void {
    this.openUntil = this.mode_ === 0 ? undefined : this.clock.now() + this.holdMs;
  }

  /** Closes a link whose hold ran out before `at`; mode 1 falls back to 0 with it (§3.5.6). */
  private settle(at: number): void {
    if (this.openUntil === undefined || at <= this.openUntil) return;
    this.openUntil = undefined;
    if (this.mode_ === 1) this.mode_ = 0;
  }
}

/** `(0-2)`, `(0,1)` or `(2)`: the <n> list of `+CMMS: ` in the forms modems print. */
export function modeList(modes: readonly MoreMessagesMode[]): string {
  const sorted = [...modes].sort((a, b) => a - b);
  const first = sorted[0];
  const last = sorted.at(-1);
  if (first !== undefined && last !== undefined && sorted.length > 1 && last - first === sorted.length - 1) {
    return `(${first}-${last})`;
  }
  return `(${sorted.join(',')})`;
}
