import type { Transport } from '../transport/transport.js';
import { redactSecrets } from './atSession.js';
import type { TrafficLine } from './trafficLine.js';

/**
 * The last lines that crossed each modem's port, for the UI's "AT log" of a modem. Kept apart
 * from the logger so it works whatever the log level, and bounded so it costs little.
 */
export class TrafficRecorder {
  private readonly lines: TrafficLine[] = [];
  private partial = '';

  constructor(
    private readonly now: () => number,
    private readonly capacity = 500,
  ) {}

  /** Wraps a transport so every write and every received line is recorded. */
  record(transport: Transport): Transport {
    transport.onData((chunk) => this.received(chunk.toString('latin1')));
    return {
      get description() {
        return transport.description;
      },
      get isOpen() {
        return transport.isOpen;
      },
      open: () => transport.open(),
      close: () => transport.close(),
      onData: (listener) => transport.onData(listener),
      onClose: (listener) => transport.onClose(listener),
      write: (data) => {
        this.sent(typeof data === 'string' ? data : Buffer.from(data).toString('latin1'));
        return transport.write(data);
      },
    };
  }

  /** Oldest first, at most `limit` lines. */
  recent(limit: number): TrafficLine[] {
    return this.lines.slice(-limit);
  }

  private sent(text: string): void {
    for (const line of splitLines(redactSecrets(text))) this.push('out', line);
  }

  private received(text: string): void {
    const combined = this.partial + text;
    const pieces = combined.split(/\r\n|\r|\n/);
    this.partial = pieces.pop() ?? '';
    // The PDU prompt "> " arrives without a newline: show it as soon as it is there.
    if (this.partial === '> ') {
      pieces.push('> ');
      this.partial = '';
    }
    // A modem with echo on sends the PIN command back.
    for (const piece of pieces) if (piece.trim() !== '') this.push('in', redactSecrets(piece));
  }

  private push(direction: TrafficLine['direction'], line: string): void {
    this.lines.push({ at: this.now(), direction, line: printable(line) });
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }
}

function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
}

/** Ctrl-Z and ESC end or abort a PDU: show them as text. */
function printable(line: string): string {
  return line.replaceAll('\u001a', '<Ctrl-Z>').replaceAll('\u001b', '<ESC>');
}
