import type { MemoryEndpoint } from '../../server/devices/transport/memoryTransport.js';

/**
 * A scripted fake modem on the device side of a MemoryLink (pattern: python-gsmmodem's
 * fakemodems.py): a table of command → reply lines, a handler for the PDU written after the
 * `> ` prompt, URC injection and a record of every command received. Echo is off until `ATE1`
 * (V.250 §6.2.4; the echo is the command line and its CR), replies are framed `\r\n<line>\r\n`
 * like a real modem. `stall()` models a modem busy with a slow command: it answers nothing until
 * `answerLate`, then works through what it was sent meanwhile, in order.
 *
 * Why beside the shipped simulator (`server/devices/simulator/simulatedModem.ts`): the simulator plays a
 * whole, well-behaved modem and network, so it cannot say the odd things a driver test needs a
 * modem to say once — a reply table of the test's own, byte for byte, a vendor's malformed line,
 * a command that never answers. Tests of the gateway's behaviour use the simulator; tests of how
 * the AT session and driver read exact replies use this.
 */
export type Reply = string[] | ((command: string) => string[] | undefined);

export interface ScriptedModemOptions {
  /** Exact command (without CR) or pattern → reply lines (the final result included). */
  replies: Array<[string | RegExp, Reply]>;
  /** Reply to the PDU written after the prompt; default `+CMGS: <n>` counting from 0, then OK. */
  onPdu?: (pdu: string, command: string) => string[];
}

export class ScriptedModem {
  readonly commands: string[] = [];
  readonly pdus: string[] = [];
  /** When true the modem swallows everything (a hung modem). */
  silent = false;
  echo = false;
  /** False for a modem that ignores ATE1 (none we know of; the fallback's test needs one). */
  canEcho = true;
  private stalled = false;
  private buffer = '';
  private awaitingPduFor?: string;
  private nextReference = 0;
  private replies: Array<[string | RegExp, Reply]>;

  constructor(
    private readonly device: MemoryEndpoint,
    private readonly options: ScriptedModemOptions,
  ) {
    this.replies = [...options.replies];
    device.onData((chunk) => this.receive(chunk.toString('latin1')));
  }

  async start(): Promise<void> {
    await this.device.open();
  }

  /** Replaces (or adds, ahead of the others) the reply to a command. */
  script(command: string | RegExp, reply: Reply): void {
    this.replies.unshift([command, reply]);
  }

  /** Sends an unsolicited line (or several, e.g. a +CMT header and its PDU). */
  inject(...lines: string[]): void {
    void this.device.write(lines.map((line) => `\r\n${line}\r\n`).join(''));
  }

  count(command: string | RegExp): number {
    return this.commands.filter((seen) => matches(command, seen)).length;
  }

  /** From now on input waits unread, as behind a command that takes long. */
  stall(): void {
    this.stalled = true;
  }

  /** Ends the stall with the slow command's answer, then handles the input that waited. */
  answerLate(lines: string[]): void {
    this.stalled = false;
    this.send(lines);
    this.receive('');
  }

  private receive(text: string): void {
    this.buffer += text;
    for (;;) {
      if (this.stalled) return;
      if (this.awaitingPduFor !== undefined) {
        // Ctrl-Z (0x1A) ends the PDU, ESC (0x1B) aborts it (TS 27.005 §3.5.1).
        const ctrlZ = this.buffer.indexOf('\x1a');
        const abort = this.buffer.indexOf('\x1b');
        const ends = [ctrlZ, abort].filter((index) => index >= 0);
        if (ends.length === 0) return;
        const end = Math.min(...ends);
        const pdu = this.buffer.slice(0, end);
        const aborted = this.buffer[end] === '\x1b';
        this.buffer = this.buffer.slice(end + 1);
        const command = this.awaitingPduFor;
        this.awaitingPduFor = undefined;
        if (aborted || this.silent) continue;
        this.pdus.push(pdu);
        const reply = this.options.onPdu?.(pdu, command) ?? [`+CMGS: ${this.nextReference++ % 256}`, 'OK'];
        this.send(reply);
        continue;
      }
      const end = this.buffer.indexOf('\r');
      if (end < 0) return;
      // V.250 §5.2.1: what comes before "AT" (an ESC sent in command mode) is ignored.
      const command = withoutLeadingEscapes(this.buffer.slice(0, end)).trim();
      this.buffer = this.buffer.slice(end + 1);
      if (command.length === 0) continue;
      this.commands.push(command);
      if (this.silent) continue;
      if (this.echo) void this.device.write(`${command}\r`);
      const echoSetting = /^ATE([01])$/i.exec(command);
      if (echoSetting) this.echo = this.canEcho && echoSetting[1] === '1';
      if (/^AT\+CMGS=\d+$/i.test(command)) {
        const refusal = this.lookup(command);
        if (refusal) {
          this.send(refusal);
          continue;
        }
        this.awaitingPduFor = command;
        void this.device.write('\r\n> ');
        continue;
      }
      this.send(this.lookup(command) ?? (echoSetting ? ['OK'] : ['ERROR']));
    }
  }

  private lookup(command: string): string[] | undefined {
    for (const [pattern, reply] of this.replies) {
      if (!matches(pattern, command)) continue;
      const lines = typeof reply === 'function' ? reply(command) : reply;
      if (lines) return lines;
    }
    return undefined;
  }

  private send(lines: string[]): void {
    if (lines.length === 0) return;
    void this.device.write(lines.map((line) => `\r\n${line}\r\n`).join(''));
  }
}

function matches(pattern: string | RegExp, command: string): boolean {
  return typeof pattern === 'string'
    ? pattern.toUpperCase() === command.toUpperCase()
    : pattern.test(command);
}

/** Replies of a well-behaved generic modem, ready for a PIN-less SIM. */
export function standardReplies(
  overrides: Partial<{ imei: string; manufacturer: string; model: string }> = {},
) {
  const replies: Array<[string | RegExp, Reply]> = [
    ['AT', ['OK']],
    ['ATE0', ['OK']],
    ['AT+CMEE=1', ['OK']],
    ['AT+CGMI', [overrides.manufacturer ?? 'Acme', 'OK']],
    ['AT+CGMM', [overrides.model ?? 'M1', 'OK']],
    ['AT+CGMR', ['1.0', 'OK']],
    ['AT+CGSN', [overrides.imei ?? '356938035643809', 'OK']],
    ['AT+CPIN?', ['+CPIN: READY', 'OK']],
    ['AT+CCID', ['+CCID: 8944500102198304826', 'OK']],
    ['AT+CNUM', ['+CNUM: "","+15550100",145', 'OK']],
    ['AT+CSCA?', ['+CSCA: "+15550000",145', 'OK']],
    ['AT+CMGF=0', ['OK']],
    ['AT+CPMS=?', ['+CPMS: ("SM","ME"),("SM","ME"),("SM","ME")', 'OK']],
    [/^AT\+CPMS=/, ['+CPMS: 0,30,0,30,0,30', 'OK']],
    ['AT+CSMS?', ['+CSMS: 0,1,1,1', 'OK']],
    ['AT+CNMI=?', ['+CNMI: (0-2),(0-3),(0,2),(0-2),(0,1)', 'OK']],
    [/^AT\+CNMI=/, ['OK']],
    ['AT+COPS=3,0', ['OK']],
    ['AT+CSQ', ['+CSQ: 20,99', 'OK']],
    ['AT+CREG?', ['+CREG: 0,1', 'OK']],
    ['AT+COPS?', ['+COPS: 0,0,"Test Net",2', 'OK']],
    ['AT+CMGL=4', ['OK']],
    [/^AT\+CMGD=/, ['OK']],
  ];
  return replies;
}

const ESC = String.fromCharCode(0x1b);

function withoutLeadingEscapes(text: string): string {
  let start = 0;
  while (text[start] === '\n' || text[start] === ESC) start++;
  return text.slice(start);
}
