/**
 * The host side of a simulated modem in tests: writes raw AT text and collects what comes
 * back, like a terminal program. Waiting polls the collected bytes (I/O, not time for logic).
 */
import type { Transport } from '../../server/devices/transport/transport.js';

const FINAL_RESULT = /^(OK|ERROR|\+CME ERROR: .*|\+CMS ERROR: .*)$/;

export class AtTerminal {
  private received = '';
  private readonly waiters = new Set<() => void>();

  constructor(private readonly port: Transport) {
    port.onData((chunk) => {
      this.received += chunk.toString('latin1');
      for (const check of [...this.waiters]) check();
    });
  }

  /** Everything received and not yet taken. */
  get pending(): string {
    return this.received;
  }

  /** Returns and forgets everything received so far. */
  take(): string {
    const text = this.received;
    this.received = '';
    return text;
  }

  async write(text: string): Promise<void> {
    await this.port.write(text);
  }

  /** Waits (real time, as for any I/O) until the received text satisfies `done`, then takes it. */
  waitFor(done: (received: string) => boolean, timeoutMs = 2000): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done(this.received)) return;
        finish();
        resolve(this.take());
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new Error(
            `nothing matching arrived within ${timeoutMs} ms; received ${JSON.stringify(this.received)}`,
          ),
        );
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Waits for a complete line equal to or matching `expected`; returns every line received. */
  async waitForLine(expected: string | RegExp, timeoutMs?: number): Promise<string[]> {
    const matches = (line: string) =>
      typeof expected === 'string' ? line === expected : expected.test(line);
    return lines(await this.waitFor((text) => completeLines(text).some(matches), timeoutMs));
  }

  /** Sends one command line (CR-terminated) and returns the reply lines up to its final result. */
  async exchange(commandLine: string): Promise<string[]> {
    await this.write(`${commandLine}\r`);
    return this.waitForLine(FINAL_RESULT);
  }

  /** AT+CMGS=<length>, waits for the `> ` prompt, writes the PDU and Ctrl-Z; returns the reply lines. */
  async submitPdu(hex: string, tpduLength: number): Promise<string[]> {
    await this.write(`AT+CMGS=${tpduLength}\r`);
    await this.waitFor((text) => text.endsWith('> '));
    await this.write(`${hex}\x1a`);
    return this.waitForLine(FINAL_RESULT);
  }

  /** Lets in-flight bytes arrive, then takes whatever came (possibly nothing). */
  async drain(rounds = 20): Promise<string> {
    for (let round = 0; round < rounds; round++) await new Promise((resolve) => setImmediate(resolve));
    return this.take();
  }
}

/** Non-empty lines of a received text; an unterminated tail (like the "> " prompt) is kept. */
export function lines(text: string): string[] {
  return text.split(/\r\n|\r|\n/).filter((line) => line !== '');
}

function completeLines(text: string): string[] {
  const end = Math.max(text.lastIndexOf('\r'), text.lastIndexOf('\n'));
  return end < 0 ? [] : lines(text.slice(0, end));
}
