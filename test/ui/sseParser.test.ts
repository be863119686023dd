import { describe, expect, it } from 'vitest';
import { createSseParser } from '../../renderer/src/api/sseParser.js';

describe('the event-stream parser', () => {
  it('reads a named event with JSON data', () => {
    const parser = createSseParser();
    expect(parser.push('event: message\ndata: {"id":"a"}\n\n')).toEqual([
      { event: 'message', data: '{"id":"a"}' },
    ]);
  });

  it('holds an event split across chunks until its blank line arrives', () => {
    const parser = createSseParser();
    expect(parser.push('event: inc')).toEqual([]);
    expect(parser.push('oming\nda')).toEqual([]);
    expect(parser.push('ta: {"sender":"+1555"}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'incoming', data: '{"sender":"+1555"}' }]);
  });

  it('treats CRLF split between two chunks as one line ending', () => {
    const parser = createSseParser();
    expect(parser.push('data: one\r')).toEqual([]);
    expect(parser.push('\n\r\n')).toEqual([{ event: 'message', data: 'one' }]);
  });

  it('accepts lone CR line endings', () => {
    expect(createSseParser().push('event: log\rdata: x\r\r')).toEqual([{ event: 'log', data: 'x' }]);
  });

  it('joins several data lines with a line feed', () => {
    expect(createSseParser().push('data: first\ndata: second\n\n')).toEqual([
      { event: 'message', data: 'first\nsecond' },
    ]);
  });

  it('ignores comments such as the keep-alive and dispatches nothing for them', () => {
    const parser = createSseParser();
    expect(parser.push(': connected\n\n: keep-alive\n\n')).toEqual([]);
  });

  it('removes only one space after the colon', () => {
    expect(createSseParser().push('data:  two spaces\n\n')).toEqual([
      { event: 'message', data: ' two spaces' },
    ]);
  });

  it('resets the event name after each dispatch', () => {
    const parser = createSseParser();
    expect(parser.push('event: device\ndata: 1\n\ndata: 2\n\n')).toEqual([
      { event: 'device', data: '1' },
      { event: 'message', data: '2' },
    ]);
  });

  it('drops an event that carried no data line', () => {
    expect(createSseParser().push('event: device\n\n')).toEqual([]);
  });

  it('remembers the last event id and the server retry interval', () => {
    const parser = createSseParser();
    expect(parser.push('id: 42\nretry: 5000\ndata: x\n\nretry: soon\n\n')).toEqual([
      { event: 'message', data: 'x', id: '42' },
    ]);
    expect(parser.lastEventId).toBe('42');
    expect(parser.retryMs).toBe(5000);
  });
});
