/**
 * Reading a `text/event-stream` answer (the HTML standard's server-sent events): blocks of
 * `field: value` lines ended by a blank line. Comment lines (`: keep-alive`) are skipped;
 * several `data:` lines join with a newline.
 */
export interface ServerSentEvent {
  /** `message` when the block names none. */
  readonly event: string;
  readonly data: string;
  readonly id: string | undefined;
}

export async function* serverSentEvents(chunks: AsyncIterable<Buffer>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true });
    const blocks = pending.split(/\r\n\r\n|\n\n|\r\r/);
    pending = blocks.pop() ?? '';
    for (const block of blocks) {
      const event = parseBlock(block);
      if (event !== undefined) yield event;
    }
  }
}

function parseBlock(block: string): ServerSentEvent | undefined {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r\n|\n|\r/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  return data.length === 0 ? undefined : { event, data: data.join('\n'), id };
}
