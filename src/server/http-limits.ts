// How long a client may take to send a request: its headers within headersTimeoutMs, the whole
// request with its body within requestTimeoutMs (README Settings, REQUEST_TIMEOUT). A request
// that never finishes arriving (a stalled upload, a socket that sends nothing) was held forever
// with what it had buffered; now it is answered 408 and its socket closed. Node checks these
// bounds on an interval (30 s by default): checked more often here, they hold within seconds.
// Node's answer to a request not received in time is request-errors.ts's clientErrorAnswer.
import http from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import type { Config } from './config.ts';

export function httpServerOptions(
  config: Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs'>,
): Pick<FastifyHttpOptions<http.Server>, 'requestTimeout' | 'http' | 'return503OnClosing'> {
  return {
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: Math.min(5_000, config.headersTimeoutMs / 2) },
    // While stopping, a request that still arrives on a kept-alive socket is answered as usual
    // (with Connection: close) rather than by Fastify's 503 outside the envelope (lifecycle.ts).
    return503OnClosing: false,
  };
}
