/**
 * Incremental parser for text/event-stream (WHATWG HTML "Server-sent events", §9.2.6
 * "Interpreting an event stream"). The UI reads the stream with fetch because EventSource cannot
 * send an Authorization header, so this does what EventSource would: lines end in CRLF, LF or
 * CR (a CR at the end of one chunk may pair with an LF at the start of the next), `:` starts a
 * comment, one optional space follows the colon, `data` lines join with LF, and a blank line
 * dispatches the event unless no data arrived.
 */

export interface ServerSentEvent {
  /** `message` when the stream named no event type (the spec's default). */
  event: string;
  data: string;
  id?: string;
}

export interface SseParser {
  /** Feeds decoded text; returns the events completed by it, in order. */
  push(chunk: string): ServerSentEvent[];
  /** The last `retry:` the server asked for, in ms. */
  readonly retryMs: number | undefined;
  /** The last event id seen (for Last-Event-ID on reconnect). */
  readonly lastEventId: string | undefined;
}

export function createSseParser(): SseParser {
  let buffer = '';
  let pendingCr = false;
  let eventType = '';
  let dataLines: string[] = [];
  let lastEventId: string | undefined;
  let retryMs: number | undefined;

  function processLine(line: string, out: ServerSentEvent[]) {
    if (line === '') {
      if (dataLines.length > 0) {
        out.push({
          event: eventType === '' ? 'message' : eventType,
          data: dataLines.join('\n'),
          ...(lastEventId === undefined ? {} : { id: lastEventId }),
        });
      }
      eventType = '';
      dataLines = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') eventType = value;
    else if (field === 'data') dataLines.push(value);
    else if (field === 'id' && !value.includes('\0')) lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
  }

  return {
    push(chunk) {
      const out: ServerSentEvent[] = [];
      let text = chunk;
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = false;
      buffer += text;
      let start = 0;
      for (let index = 0; index < buffer.length; index++) {
        const char = buffer[index];
        if (char !== '\n' && char !== '\r') continue;
        processLine(buffer.slice(start, index), out);
        if (char === '\r') {
          if (index + 1 === buffer.length) pendingCr = true;
          else if (buffer[index + 1] === '\n') index++;
        }
        start = index + 1;
      }
      buffer = buffer.slice(start);
      return out;
    },
    get retryMs() {
      return retryMs;
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}
