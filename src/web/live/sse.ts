// Server-sent events as they arrive in pieces (the live stream, GET /api/events, read with fetch):
// messages end at a blank line; `event:` names one, `data:` lines carry its text, a line starting
// with ':' is a comment (the server's keep-alive). Pure, so the cutting is tested without a stream.

export interface SseMessage {
  event: string;
  data: string;
}

/** A parser fed text as it arrives; each whole message (not comments) goes to `onMessage`. */
export function createSseParser(onMessage: (message: SseMessage) => void): { push(text: string): void } {
  let buffer = '';
  return {
    push(text) {
      buffer += text.replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length) onMessage({ event, data: data.join('\n') });
      }
    },
  };
}
