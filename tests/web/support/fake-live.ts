// The live stream (GET /api/events) as app-harness's renderApp answers it unless a test stubs it: a
// text/event-stream that says `ready` and stays open until the page lets it go. A test sends the
// server's hints through `change`, breaks the open streams with `drop`, and reads `opened` (every
// stream asked for) and `open` (those still open).
import type { components } from '../../../src/api/schema';

export type LiveEvent = components['schemas']['LiveEvent'];

export interface FakeLive {
  /** The route's handler, for the route table. */
  handler: (request: Request) => Response;
  /** Sends `event` as an `event: change` message to every open stream. */
  change(event: LiveEvent): void;
  /** Ends every open stream, as a stopping server does. */
  drop(): void;
  /** Streams asked for so far. */
  readonly opened: number;
  /** Streams open now. */
  readonly open: number;
}

export function createFakeLive(): FakeLive {
  const encoder = new TextEncoder();
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  let opened = 0;
  const send = (text: string) => {
    for (const s of streams) s.enqueue(encoder.encode(text));
  };
  return {
    handler(request) {
      opened++;
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
          streams.add(c);
          c.enqueue(encoder.encode('event: ready\ndata: {}\n\n'));
        },
        cancel() {
          streams.delete(controller);
        },
      });
      request.signal.addEventListener('abort', () => streams.delete(controller));
      return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
    },
    change: (event) => send(`event: change\ndata: ${JSON.stringify(event)}\n\n`),
    drop() {
      for (const s of [...streams]) {
        streams.delete(s);
        s.close();
      }
    },
    get opened() {
      return opened;
    },
    get open() {
      return streams.size;
    },
  };
}
