/**
 * The bytes a host has typed and the modem has not yet consumed. The modem pulls either the
 * next command line or, after it showed the `> ` prompt, the next PDU body; so a host that
 * writes a command and its PDU in one burst is read exactly like one that waits.
 *
 * - V.250 §5.2.1 ends a command line with S3 (CR); hosts also send CRLF or a bare LF, so any
 *   of them ends the line and the empty line a CRLF leaves behind is skipped.
 * - TS 27.005 §3.5.1: a PDU body ends with Ctrl-Z (0x1A); ESC (0x1B) cancels the send.
 *
 * Pure: no I/O.
 */
const CTRL_Z = '\x1a';
const ESCAPE = '\x1b';

export type PduBody = { kind: 'submitted'; hex: string } | { kind: 'aborted' };

export class ModemInput {
  private pending = '';

  push(chunk: Buffer): void {
    this.pending += chunk.toString('latin1');
  }

  /** Forgets unread input (the modem was switched off). */
  clear(): void {
    this.pending = '';
  }

  /** The next non-empty command line without its terminator, or undefined until one is complete. */
  takeLine(): string | undefined {
    for (;;) {
      const end = this.pending.search(/[\r\n]/);
      if (end < 0) return undefined;
      const line = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 1);
      if (line.trim() !== '') return line;
    }
  }

  /** The next PDU body (whitespace removed), or undefined until Ctrl-Z or ESC arrives. */
  takePduBody(): PduBody | undefined {
    const end = Math.min(
      ...[CTRL_Z, ESCAPE].map((char) => this.pending.indexOf(char)).filter((at) => at >= 0),
    );
    if (!Number.isFinite(end)) return undefined;
    const body = this.pending.slice(0, end);
    const terminator = this.pending.charAt(end);
    this.pending = this.pending.slice(end + 1);
    return terminator === ESCAPE ? { kind: 'aborted' } : { kind: 'submitted', hex: body.replace(/\s+/g, '') };
  }
}
