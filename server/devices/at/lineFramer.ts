/**
 * Splits the modem's byte stream into lines and the SMS prompt (pattern: serialport's
 * parser-readline, but tolerant of every line ending modems use).
 *
 * - V.250 §5.7.1 says responses are `<CR><LF>text<CR><LF>`, but echo ends in a bare `<CR>`,
 *   Huawei E1752 ends `AT+CLAC` lines with `\r\r\n`, and some modems send bare `\n`. Any CR or
 *   LF therefore ends a line, and the empty lines this produces are dropped.
 * - TS 27.005 §3.5.1: after `AT+CMGS=<length>` the modem answers `<CR><LF><greater_than><space>`
 *   with NO line ending after it, so the prompt is recognised in the unfinished line. Only while
 *   `expectPrompt` is set: outside a send, a text-mode body line may well start with "> ".
 *
 * Pure: no I/O, no timers. Feed it latin1-decoded chunks split anywhere.
 */
export type FramerEvent = { kind: 'line'; line: string } | { kind: 'prompt' };

const PROMPT = '> ';

export class LineFramer {
  /** Set by the session while an `AT+CMGS`/`AT+CMGW` waits for its prompt. */
  expectPrompt = false;
  private partial = '';

  /** Consumes one chunk and returns the events it completes, in order. */
  push(chunk: string): FramerEvent[] {
    const events: FramerEvent[] = [];
    for (const char of chunk) {
      if (char === '\r' || char === '\n') {
        if (this.partial.length > 0) events.push({ kind: 'line', line: this.partial });
        this.partial = '';
        continue;
      }
      this.partial += char;
      if (this.expectPrompt && this.partial === PROMPT) {
        events.push({ kind: 'prompt' });
        this.partial = '';
      }
    }
    return events;
  }

  /** The unfinished line so far (shown in timeout errors: it is what the modem did say). */
  get pending(): string {
    return this.partial;
  }

  /** Drops the unfinished line, e.g. after the port was reopened. */
  reset(): void {
    this.partial = '';
  }
}
