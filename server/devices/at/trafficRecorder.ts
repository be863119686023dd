import type { TrafficLine } from '../../contract/domain/trafficLine.js';
import type { Transport } from '../transport/transport.js';
import { redactSecrets } from './atSession.js';
import { PduMask } from './pduMask.js';

/** How a connection's lines are kept. */
export interface RecordOptions {
  /**
   * Hold the connection's lines until the far end answers a command of ours with `OK`, and drop
   * them if it never does: a network address may lead to any service, whose banners and answers
   * must not be readable through the AT log. A local port is shown from its first line.
   */
  untilModemAnswers?: boolean;
  /**
   * SMS PDUs are kept as they are (`--show-pdus`, for debugging); otherwise each is replaced by
   * its size (`pduMask.ts`): the AT log is read with `logs:read`, not a scope to read messages.
   */
  showPdus?: boolean;
}

/** Longer than any line a modem sends (a PDU listing line is a few hundred characters). */
const longestLine = 4_096;

/**
 * The last lines that crossed each modem's port, for the UI's "AT log" of a modem. Kept apart
 * from the logger so it works whatever the log level, and bounded so it costs little.
 */
export class TrafficRecorder {
  private readonly lines: TrafficLine[] = [];

  constructor(
    private readonly now: () => number,
    private readonly capacity = 500,
  ) {}

  /** Wraps a transport (one connection) so every write and every received line is recorded. */
  record(transport: Transport, options: RecordOptions = {}): Transport {
    let partial = '';
    let askedAt = false;
    // Lines of a connection that has not answered like a modem yet; undefined once shown.
    let held: TrafficLine[] | undefined = options.untilModemAnswers ? [] : undefined;
    const pdus = options.showPdus ? undefined : new PduMask();
    const keep = (direction: TrafficLine['direction'], line: string) => {
      const shown = pdus ? (direction === 'in' ? pdus.received(line) : pdus.sent(line)) : line;
      const entry: TrafficLine = { at: this.now(), direction, line: printable(shown.slice(0, longestLine)) };
      if (!held) {
        this.push(entry);
        return;
      }
      held.push(entry);
      if (held.length > this.capacity) held.shift();
      // `OK` after a command of ours: the final result code of TS 27.007 §4.1, as only a modem says it.
      if (direction === 'in' && askedAt && line.trim() === 'OK') {
        for (const kept of held) this.push(kept);
        held = undefined;
      }
    };
    const sent = (text: string) => {
      for (const line of splitLines(redactSecrets(text))) {
        if (/^AT/i.test(line.trim())) askedAt = true;
        keep('out', line);
      }
    };
    const received = (text: string) => {
      const pieces = (partial + text).split(/\r\n|\r|\n/);
      partial = pieces.pop() ?? '';
      // The PDU prompt "> " arrives without a newline: show it as soon as it is there.
      if (partial === '> ' || partial.length > longestLine) {
        pieces.push(partial);
        partial = '';
      }
      // A modem with echo on sends the PIN command back.
      for (const piece of pieces) if (piece.trim() !== '') keep('in', redactSecrets(piece));
    };
    transport.onData((chunk) => received(chunk.toString('latin1')));
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
        sent(typeof data === 'string' ? data : Buffer.from(data).toString('latin1'));
        return transport.write(data);
      },
    };
  }

  /** Oldest first, at most `limit` lines. */
  recent(limit: number): TrafficLine[] {
    return this.lines.slice(-limit);
  }

  private push(entry: TrafficLine): void {
    this.lines.push(entry);
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
