// GET /api/events (Beyond SPEC §7; docs/decisions/016-live-updates.md): the caller's live stream of
// change hints, served from this process's LiveHub. The session token is the x-token header the
// route's authorize read (never a URL); the stream ends when its session is revoked or its user's
// role changes (the hub hears it at once) and the hub re-checks it on every keep-alive.
import { me, type Handlers } from './types.ts';

export const liveHandlers: Handlers = {
  async streamEvents(req, ctx, reply) {
    const token = String(req.raw.headers['x-token'] ?? '').trim();
    const stream = await ctx.live.open(me(req), token);
    // Connection: close - the socket ends with the stream, so a stopping server is not held by it.
    return reply.type('text/event-stream; charset=utf-8').header('connection', 'close').header('x-accel-buffering', 'no').send(stream);
  },
};
