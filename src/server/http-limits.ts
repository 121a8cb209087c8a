// How long a client may take to send a request: its headers within headersTimeoutMs, the whole
// request with its body within requestTimeoutMs (README Settings, REQUEST_TIMEOUT). A request
// that never finishes arriving (a stalled upload, a socket that sends nothing) was held forever
// with what it had buffered; now it is answered 408 and its socket closed. Node checks these
// bounds on an interval (30 s by default): checked more often here, they hold within seconds.
// The answers Node asks for on a client's error (timeout, malformed HTTP) are in the envelope too.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { Code } from './errors.ts';

export function httpServerOptions(config: Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs'>): Pick<FastifyHttpOptions<http.Server>, 'requestTimeout' | 'http' | 'clientErrorHandler' | 'return503OnClosing'> {
  return {
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: Math.min(5_000, config.headersTimeoutMs / 2) },
    clientErrorHandler,
    // While stopping, a request that still arrives on a kept-alive socket is answered as usual
    // (with Connection: close) rather than by Fastify's 503 outside the envelope (lifecycle.ts).
    return503OnClosing: false,
  };
}

function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket) {
  // The client has gone: nothing to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let msg = '参数错误：请求格式不正确';
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    msg = '参数错误：请求未在限定时间内完整送达，请重试';
    this.log.info({ remoteAddress: socket.remoteAddress }, 'request dropped: not received whole within its time limit');
  } else if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    msg = '参数错误：请求头过大';
  } else {
    this.log.debug({ err }, 'malformed request');
  }
  const body = JSON.stringify({ code: Code.badParam, msg });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
