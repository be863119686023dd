/**
 * The simulated network's USSD service and voice calls, as a modem shows them:
 *
 * - USSD (TS 27.007 §7.15): `AT+CUSD=1,<str>,<dcs>` answers OK at once; the network's answer
 *   follows as `+CUSD: <m>,<str>,<dcs>` after `ussdDelayMs`. <m> 1 keeps the session open for a
 *   reply (a menu), `AT+CUSD=2` cancels it, an unknown code answers `+CUSD: 4`. How strings are
 *   written depends on the modem (`UssdForm`): text, Huawei's packed septets in hex, or UCS-2 hex.
 * - Calls: `RING` repeats while a call rings, each followed by `+CLIP: "<number>",<type>` once
 *   AT+CLIP=1 enabled it (§7.6); `ATH` (V.250 §6.3.6) or `AT+CHUP` (§6.5) ends it, but only the
 *   command this modem ends voice calls with (Huawei sticks answer ATH with OK and keep ringing).
 */
import type { Clock, TimerHandle } from '../../clock/clock.js';
import { bytesToHex } from '../../contract/pdu/hex.js';
import { encodeUcs2 } from '../../contract/pdu/ucs2.js';
import { textFromCharacterSet, textToCharacterSet } from '../modem/characterSet.js';
import { decodeUssdString, encodeUssdString } from '../modem/ussdCodec.js';
import { typeOfAddress } from './modemIdentity.js';

/** How this modem writes USSD strings: text (most), packed hex (Huawei), UCS-2 hex (DCS 72). */
export type UssdForm = 'text' | 'packed-hex' | 'ucs2';

/** One USSD service: its answer, and the replies it takes when it keeps the session open. */
export interface UssdService {
  /** Absent: the network never answers (the host's wait times out). */
  answer?: string;
  /** Reply text → what follows; with replies the session stays open (<m> 1). */
  replies?: Record<string, UssdService>;
}

export type HangUpCommand = 'ATH' | 'AT+CHUP';

export interface TelephonyOptions {
  clock: Clock;
  ussdForm?: UssdForm;
  /** AT+CSCS now: the set a USSD string in text form is written and read in. */
  characterSet(): string;
  /** Between the OK of AT+CUSD and the +CUSD answer, ms (default 200). */
  ussdDelayMs?: number;
  /** The command that ends a voice call on this modem (default 'ATH'). */
  hangUp?: HangUpCommand;
  /** Writes unsolicited lines to the host. */
  emit(lines: string[]): void;
  /** Whether AT+CLIP=1 is in force. */
  callerId(): boolean;
}

export interface RingOptions {
  /** Rings before the caller gives up (default 5). */
  rings?: number;
  /** Between rings, ms (default 2000). */
  intervalMs?: number;
}

/** What the simulated operator offers out of the box. */
export function defaultUssdServices(): Record<string, UssdService> {
  return {
    '*100#': { answer: 'Your balance is 12.50 EUR. Valid until 31.12.2026.' },
    '*101#': {
      answer: 'Menu: 1 Balance, 2 Bundles',
      replies: {
        '1': { answer: 'Your balance is 12.50 EUR.' },
        '2': { answer: 'Bundles: 1 Day pass, 2 Week pass', replies: { '1': { answer: 'Day pass bought.' } } },
      },
    },
  };
}

interface Ringing {
  number: string;
  ringsLeft: number;
  timer?: TimerHandle;
}

export class SimulatedTelephony {
  private readonly services: Record<string, UssdService> = defaultUssdServices();
  private session?: UssdService;
  private ringing?: Ringing;
  private readonly timers = new Set<TimerHandle>();
  private readonly hangUps: HangUpCommand[] = [];

  constructor(private readonly options: TelephonyOptions) {}

  /** Adds or replaces a service (tests: a changed balance, a silent code). */
  setUssdService(code: string, service: UssdService): void {
    this.services[code] = service;
  }

  /** Hang-up commands that ended a call, in order. */
  get callsEnded(): readonly HangUpCommand[] {
    return this.hangUps;
  }

  get isRinging(): boolean {
    return this.ringing !== undefined;
  }

  /** `AT+CUSD=1,<str>[,<dcs>]`; false when the string cannot be read (the modem answers ERROR). */
  request(str: string): boolean {
    const text = this.readRequest(str);
    if (text === undefined) return false;
    const open = this.session;
    const service = open ? open.replies?.[text] : this.services[text];
    this.session = undefined;
    this.later(() => {
      if (!service) {
        this.options.emit(['+CUSD: 4']);
        return;
      }
      if (service.answer === undefined) return;
      if (service.replies) this.session = service;
      this.options.emit([this.answerLine(service.replies ? 1 : 0, service.answer)]);
    });
    return true;
  }

  /** `AT+CUSD=2`. */
  cancel(): void {
    this.session = undefined;
  }

  /** A call from `number` starts ringing. */
  ring(number: string, options: RingOptions = {}): void {
    this.endCall();
    const call: Ringing = { number, ringsLeft: options.rings ?? 5 };
    this.ringing = call;
    const intervalMs = options.intervalMs ?? 2_000;
    const ringOnce = () => {
      if (this.ringing !== call) return;
      if (call.ringsLeft <= 0) {
        this.endCall();
        this.options.emit(['NO CARRIER']);
        return;
      }
      call.ringsLeft--;
      const lines = ['RING'];
      if (this.options.callerId()) lines.push(`+CLIP: "${number}",${typeOfAddress(number)},,,,0`);
      this.options.emit(lines);
      call.timer = this.options.clock.setTimer(ringOnce, intervalMs);
    };
    ringOnce();
  }

  /** ATH or AT+CHUP: ends the call when it is this modem's way of doing so. Always answers OK. */
  hangUp(command: HangUpCommand): void {
    if (!this.ringing || command !== (this.options.hangUp ?? 'ATH')) return;
    this.hangUps.push(command);
    this.endCall();
  }

  /** A power cut: nothing rings, no answer comes. */
  halt(): void {
    for (const timer of this.timers) timer.cancel();
    this.timers.clear();
    this.endCall();
    this.session = undefined;
  }

  private endCall(): void {
    this.ringing?.timer?.cancel();
    this.ringing = undefined;
  }

  private later(work: () => void): void {
    const timer = this.options.clock.setTimer(() => {
      this.timers.delete(timer);
      work();
    }, this.options.ussdDelayMs ?? 200);
    this.timers.add(timer);
  }

  private readRequest(str: string): string | undefined {
    if (this.options.ussdForm !== 'packed-hex') return textFromCharacterSet(str, this.options.characterSet());
    // A Huawei stick takes only the packed form: plain text is refused.
    return /^(?:[0-9A-Fa-f]{2})+$/.test(str) ? decodeUssdString(str, 15, 'packed-hex', undefined) : undefined;
  }

  private answerLine(status: number, answer: string): string {
    const form = this.options.ussdForm ?? 'text';
    if (form === 'ucs2') return `+CUSD: ${status},"${bytesToHex(encodeUcs2(answer))}",72`;
    if (form === 'packed-hex')
      return `+CUSD: ${status},"${encodeUssdString(answer, 'packed-hex', undefined) ?? ''}",15`;
    // In text form the network's line breaks reach the host as they are, inside the quotes; a
    // character the set cannot write comes out as "?", as modems print it.
    const charset = this.options.characterSet();
    const written = Array.from(
      answer.replaceAll('\n', '\r\n'),
      (char) => textToCharacterSet(char, charset) ?? '?',
    );
    return `+CUSD: ${status},"${written.join('')}",15`;
  }
}
