// The live stream's messages as the page cuts them out of what arrives (src/web/live/sse.ts): split
// anywhere, CRLF or LF, comments skipped, data lines joined.
import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from '../../../src/web/live/sse';

function parse(pieces: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = createSseParser((m) => out.push(m));
  for (const p of pieces) parser.push(p);
  return out;
}

describe('server-sent events', () => {
  it('reads whole messages however the text is split, and skips comments', () => {
    const text = 'event: ready\ndata: {}\n\n: ping\n\nevent: change\ndata: {"kind":"task","ids":[1]}\n\n';
    const whole = parse([text]);
    expect(whole).toEqual([
      { event: 'ready', data: '{}' },
      { event: 'change', data: '{"kind":"task","ids":[1]}' },
    ]);
    expect(parse(text.split(''))).toEqual(whole);
    expect(parse([text.replace(/\n/g, '\r\n')])).toEqual(whole);
  });

  it('keeps a message that has not ended for the next piece, and joins its data lines', () => {
    expect(parse(['data: a\ndata: b\n'])).toEqual([]);
    expect(parse(['data: a\ndata: b\n', '\n'])).toEqual([{ event: 'message', data: 'a\nb' }]);
  });
});
