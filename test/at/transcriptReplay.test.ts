import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { createMemoryLink } from '../../server/devices/transport/memoryTransport.js';
import {
  parseTranscript,
  stepsOf,
  TranscriptReplayer,
  unescapeTranscript,
} from '../support/transcriptReplay.js';

const sample = [
  '# header comment',
  '# --- first',
  'RX +CMTI: "SM",1\\r\\n',
  'TX AT+CMGS=5\\r',
  'RX > ',
  'TX <PDU>\\x1a',
  'RX +CMGS: 7\\r\\n',
  '# --- second',
  'TX AT\\r',
  'RX OK\\r\\n',
].join('\n');

describe('transcript replayer', () => {
  it('reads the escapes of the transcript format', () => {
    expect(unescapeTranscript('a\\r\\n\\x1a\\x1b\\\\b')).toBe('a\r\n\x1a\x1b\\b');
  });

  it('splits exchanges and keeps the trailing space of the prompt', () => {
    const transcript = parseTranscript('sample', sample);
    expect(transcript.exchanges.map((exchange) => exchange.title)).toEqual(['first', 'second']);
    expect(transcript.exchanges[0]?.events[2]).toEqual({ direction: 'RX', data: '> ' });
  });

  it('pairs a command with the PDU written after its prompt', () => {
    const [first] = parseTranscript('sample', sample).exchanges;
    if (!first) throw new Error('no exchange');
    expect(stepsOf(first)).toEqual([{ command: 'AT+CMGS=5', sendsPdu: true }]);
  });

  it('plays RX only after the matching TX and records bytes that do not match', async () => {
    const [, second] = parseTranscript('sample', sample).exchanges;
    if (!second) throw new Error('no exchange');
    const clock = new ManualClock();
    const link = createMemoryLink('replay');
    const heard: string[] = [];
    await link.host.open();
    link.host.onData((chunk) => heard.push(chunk.toString('latin1')));
    const replayer = new TranscriptReplayer(link.device, second);
    await replayer.start();
    await link.host.write('ATI\r');
    await clock.advance(0);
    expect(replayer.mismatches).toEqual(['ATI\r']);
    expect(heard).toEqual([]);
    await link.host.write('AT\r');
    await clock.advance(0);
    expect(heard).toEqual(['OK\r\n']);
    expect(replayer.finished).toBe(true);
  });
});
