/**
 * Replays recorded modem transcripts (test/fixtures/transcripts/*.txt) over a MemoryLink: the
 * device side plays each RX line when the host has written the TX that precedes it, so an
 * AtSession under test sees exactly what the recorded modem sent, in the recorded order.
 *
 * Format (see the header of each transcript): "TX <bytes>" / "RX <bytes>", escapes \r \n \x1a
 * \x1b \\, "#" comments, "# ---" starts a new independent exchange. A TX of "<PDU>" stands for
 * any SMS-SUBMIT hex the test sends.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MemoryEndpoint } from '../../server/devices/transport/memoryTransport.js';

const CTRL_Z = '\x1a';

export interface TranscriptEvent {
  direction: 'TX' | 'RX';
  data: string;
}

export interface TranscriptExchange {
  title: string;
  events: TranscriptEvent[];
}

export interface Transcript {
  name: string;
  exchanges: TranscriptExchange[];
}

const transcriptDir = new URL('../fixtures/transcripts/', import.meta.url);

export function loadTranscript(fileName: string): Transcript {
  return parseTranscript(fileName, readFileSync(fileURLToPath(new URL(fileName, transcriptDir)), 'utf8'));
}

export function parseTranscript(name: string, text: string): Transcript {
  const exchanges: TranscriptExchange[] = [];
  let current: TranscriptExchange | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('# ---')) {
      current = { title: line.slice(5).trim(), events: [] };
      exchanges.push(current);
      continue;
    }
    if (line.startsWith('#') || line.trim().length === 0) continue;
    const match = /^(TX|RX) (.*)$/s.exec(line);
    if (!match || !current) throw new Error(`${name}: cannot read transcript line ${JSON.stringify(line)}`);
    current.events.push({ direction: match[1] as 'TX' | 'RX', data: unescapeTranscript(match[2] ?? '') });
  }
  return { name, exchanges };
}

export function unescapeTranscript(text: string): string {
  return text.replace(/\\(r|n|\\|x([0-9a-fA-F]{2}))/g, (_all, kind: string, hex: string | undefined) => {
    if (hex !== undefined) return String.fromCharCode(Number.parseInt(hex, 16));
    if (kind === 'r') return '\r';
    if (kind === 'n') return '\n';
    return '\\';
  });
}

/** One command the host sends in an exchange: the TX line, and the PDU TX that follows it. */
export interface TranscriptStep {
  command: string;
  /** True when the next TX is a PDU ("<PDU>" or hex ending in Ctrl-Z). */
  sendsPdu: boolean;
  /** The recorded PDU hex, when the transcript records it (not "<PDU>"). */
  pdu?: string;
}

export function stepsOf(exchange: TranscriptExchange): TranscriptStep[] {
  const steps: TranscriptStep[] = [];
  for (const event of exchange.events) {
    if (event.direction !== 'TX') continue;
    if (event.data.endsWith('\r')) {
      steps.push({ command: event.data.slice(0, -1), sendsPdu: false });
      continue;
    }
    const last = steps[steps.length - 1];
    if (!last) throw new Error(`PDU without a command in "${exchange.title}"`);
    last.sendsPdu = true;
    const pdu = event.data.endsWith(CTRL_Z) ? event.data.slice(0, -1) : event.data;
    if (pdu !== '<PDU>') last.pdu = pdu;
  }
  return steps;
}

export interface ReplayOptions {
  /** Split every RX line into chunks of this many bytes (default: one chunk per line). */
  chunkSize?: number;
}

/**
 * Plays one exchange on the device end of a MemoryLink. RX lines before the first TX play at
 * `start()`; the rest play as soon as the host has written the TX before them.
 */
export class TranscriptReplayer {
  /** Bytes the host wrote that did not match the next expected TX. */
  readonly mismatches: string[] = [];
  private next = 0;
  private received = '';
  /** Replies are played one after another, never interleaved, however the writes arrive. */
  private work: Promise<void> = Promise.resolve();

  constructor(
    private readonly device: MemoryEndpoint,
    private readonly exchange: TranscriptExchange,
    private readonly options: ReplayOptions = {},
  ) {}

  async start(): Promise<void> {
    await this.device.open();
    this.device.onData((chunk) => {
      this.received += chunk.toString('latin1');
      this.work = this.work.then(() => this.advance());
    });
    this.work = this.work.then(() => this.playRx());
    await this.work;
  }

  /** True when every event of the exchange was played or matched. */
  get finished(): boolean {
    return this.next >= this.exchange.events.length;
  }

  /** The events not reached yet, for a readable failure. */
  get remaining(): TranscriptEvent[] {
    return this.exchange.events.slice(this.next);
  }

  private async advance(): Promise<void> {
    for (;;) {
      const expected = this.exchange.events[this.next];
      if (expected?.direction !== 'TX') return;
      const length = matchTx(expected.data, this.received);
      if (length === undefined) {
        if (this.received.length >= expected.data.length && !expected.data.startsWith('<PDU>')) {
          this.mismatches.push(this.received);
          this.received = '';
        }
        return;
      }
      this.received = this.received.slice(length);
      this.next++;
      await this.playRx();
    }
  }

  private async playRx(): Promise<void> {
    for (;;) {
      const event = this.exchange.events[this.next];
      if (event?.direction !== 'RX') return;
      this.next++;
      const size = this.options.chunkSize ?? event.data.length;
      for (let offset = 0; offset < event.data.length; offset += size) {
        await this.device.write(event.data.slice(offset, offset + size));
      }
    }
  }
}

/** Length of `received` that matches the expected TX, or undefined when not (yet) matched. */
function matchTx(expected: string, received: string): number | undefined {
  if (expected.startsWith('<PDU>')) {
    const end = received.indexOf(CTRL_Z);
    return end > 0 && /^[0-9A-Fa-f]+$/.test(received.slice(0, end)) ? end + 1 : undefined;
  }
  return received.startsWith(expected) ? expected.length : undefined;
}
