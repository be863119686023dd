/**
 * Reads a server-sent events body as upstream's `modules/sse/service.go` writes it:
 * `event: <PushEventType>\ndata: <JSON>\n\n`, with `:keepalive` comments in between.
 * Calls `onEvent` for each complete event; resolves when the stream ends.
 */
export async function readServerEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (type: string, data: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = '';
  let type = '';
  let data: string[] = [];
  const dispatchLine = (line: string) => {
    if (line === '') {
      if (type !== '' || data.length > 0) onEvent(type || 'message', data.join('\n'));
      type = '';
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
  };
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.search(/\r\n|\r|\n/);
    while (newline !== -1) {
      const length = buffered.startsWith('\r\n', newline) ? 2 : 1;
      dispatchLine(buffered.slice(0, newline));
      buffered = buffered.slice(newline + length);
      newline = buffered.search(/\r\n|\r|\n/);
    }
  }
}
