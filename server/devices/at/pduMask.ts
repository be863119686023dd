/**
 * Hides SMS PDUs in AT traffic that is shown or logged. A PDU is a whole message — text,
 * numbers, time — so the AT log (readable with `logs:read`) would otherwise hold every SMS
 * sent and received. A hidden PDU keeps its place and its size. One mask per connection: which
 * received line is a PDU follows from the lines before it.
 *
 * - Written: the PDU after `AT+CMGS=<length>`'s prompt, ended by Ctrl-Z (TS 27.005 §3.5.1).
 *   Nothing else we write is all hex digits, so such a line is always one.
 * - Received: the line after a `+CMT:` or `+CDS:` indication (§3.4.1) and after each `+CMGR:`
 *   and `+CMGL:` header (§3.4.3, §4.1); and, while echo is on, the modem's echo of a PDU we
 *   write (after its `> ` prompt).
 */
export class PduMask {
  /** The last received line was a header whose PDU comes next. */
  private headerSeen = false;
  /** `AT+CMGS`/`AT+CMGW` is in flight: its PDU may come back as echo. */
  private writing = false;

  /** A line written to the modem, as it may be shown. */
  sent(line: string): string {
    if (/^AT\+CMG[SW]=/i.test(line.trim())) this.writing = true;
    return hidden(line) ?? line;
  }

  /** A line received from the modem, as it may be shown. */
  received(line: string): string {
    const afterHeader = this.headerSeen;
    this.headerSeen = /^\+(CMT|CDS|CMGR|CMGL):/.test(line.trim());
    if (afterHeader) return hidden(line) ?? line;
    if (!this.writing) return line;
    if (/^(OK|ERROR|\+CMS ERROR|\+CME ERROR)/.test(line.trim())) this.writing = false;
    const prompt = /^> ?/.exec(line)?.[0] ?? '';
    const echo = hidden(line.slice(prompt.length));
    return echo === undefined ? line : `${prompt}${echo}`;
  }
}

/** Ctrl-Z ends a PDU we write, ESC abandons it (TS 27.005 §3.5.1). */
const pduEnds = ['\u001a', '\u001b'];

/** `<hex>[Ctrl-Z|ESC]` → `<PDU hidden: n bytes>[Ctrl-Z|ESC]`; undefined for anything else. */
function hidden(line: string): string | undefined {
  const text = line.trim();
  const end = pduEnds.find((character) => text.endsWith(character)) ?? '';
  const hex = text.slice(0, text.length - end.length);
  if (!/^[0-9A-Fa-f]{2,}$/.test(hex)) return undefined;
  return `<PDU hidden: ${Math.ceil(hex.length / 2)} bytes>${end}`;
}
