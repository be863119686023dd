import { describe, expect, it } from 'vitest';
import { type FramerEvent, LineFramer } from '../../server/devices/at/lineFramer.js';
import { loadTranscript } from '../support/transcriptReplay.js';

/** Feeds `text` split at the given positions and returns every event. */
function frame(text: string, splits: number[], expectPrompt = false): FramerEvent[] {
  const framer = new LineFramer();
  framer.expectPrompt = expectPrompt;
  const events: FramerEvent[] = [];
  let from = 0;
  for (const at of [...splits, text.length]) {
    events.push(...framer.push(text.slice(from, at)));
    from = at;
  }
  return events;
}

const lines = (...texts: string[]): FramerEvent[] => texts.map((line) => ({ kind: 'line', line }));

describe('LineFramer', () => {
  it('splits CRLF-, CR- and LF-terminated lines and drops the blank ones', () => {
    expect(frame('\r\nOK\r\nAT+CREG?\r+CREG: 2,1\nERROR\r\n', [])).toEqual(
      lines('OK', 'AT+CREG?', '+CREG: 2,1', 'ERROR'),
    );
  });

  it('treats the doubled CR of Huawei E1752 AT+CLAC lines as one line end', () => {
    expect(frame('&C\r\r\n&D\r\r\nOK\r\n', [])).toEqual(lines('&C', '&D', 'OK'));
  });

  it('gives the same lines for every single split position of a transcript', () => {
    const transcript = 'AT+CMGL=4\r\r\n+CMGL: 0,0,,35\r\n07917248014000F3\r\n\r\nOK\r\n';
    const whole = frame(transcript, []);
    expect(whole).toEqual(lines('AT+CMGL=4', '+CMGL: 0,0,,35', '07917248014000F3', 'OK'));
    for (let at = 0; at <= transcript.length; at++) {
      expect(frame(transcript, [at])).toEqual(whole);
    }
  });

  it('gives the same events for every pair of split positions, prompt included', () => {
    const transcript = '+ZPASR: "UMTS"\r\n> +CMGS: 0\r\nOK\r\n';
    const whole = frame(transcript, [], true);
    expect(whole).toEqual([
      { kind: 'line', line: '+ZPASR: "UMTS"' },
      { kind: 'prompt' },
      { kind: 'line', line: '+CMGS: 0' },
      { kind: 'line', line: 'OK' },
    ]);
    for (let first = 0; first <= transcript.length; first++) {
      for (let second = first; second <= transcript.length; second++) {
        expect(frame(transcript, [first, second], true)).toEqual(whole);
      }
    }
  });

  it.each([
    'cmgl-listings-pdu-and-text.txt',
    'gammu-echo-on-dumps.txt',
    'status-report-cdsi-and-broken-cmgr.txt',
    'vendor-nonstandard-replies.txt',
    'zte-k3565z-unsolicited-during-cmgs.txt',
  ])('frames everything the modem sent in %s the same way at every split position', (file) => {
    for (const exchange of loadTranscript(file).exchanges) {
      const received = exchange.events
        .filter((event) => event.direction === 'RX')
        .map((event) => event.data)
        .join('');
      const whole = frame(received, [], true);
      expect(whole.length).toBeGreaterThan(0);
      for (let at = 0; at <= received.length; at++) {
        expect(frame(received, [at], true)).toEqual(whole);
      }
    }
  });

  it('recognises the "> " prompt that arrives with no line ending', () => {
    expect(frame('\r\n> ', [], true)).toEqual([{ kind: 'prompt' }]);
  });

  it('keeps a line starting with "> " as text while no prompt is expected', () => {
    const framer = new LineFramer();
    expect(framer.push('> quoted reply')).toEqual([]);
    expect(framer.pending).toBe('> quoted reply');
    expect(framer.push('\r\n')).toEqual(lines('> quoted reply'));
  });

  it('forgets the unfinished line on reset', () => {
    const framer = new LineFramer();
    framer.push('+CSQ: 2');
    framer.reset();
    expect(framer.push('OK\r\n')).toEqual(lines('OK'));
  });
});
