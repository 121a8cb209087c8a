// Clients that send slowly, stall or leave (http-limits.ts, the error handler in app.ts): a request
// that does not arrive whole within its time is answered 408 in the envelope and its socket closed,
// and a client that aborts its upload is no server error in the log. The app listens on a real port
// with bounds of about a second (the product's are 30 s and 120 s) and its log captured.
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { createUser, login, useTestApp } from '../support/harness.ts';

const t = useTestApp();
const HEADERS_MS = 1_000;
const REQUEST_MS = 1_500;
/** Generous: the bounds above plus Node's check interval are ~2 s; without a bound a socket stays open for good. */
const CLOSED_WITHIN_MS = 15_000;

let app: FastifyInstance;
let port = 0;
let log: { level: number; msg: string }[] = [];

beforeAll(async () => {
  const { database, config, mailer, outbox } = t();
  const logger = pino({ level: 'debug' }, { write: (line: string) => void log.push(JSON.parse(line) as { level: number; msg: string }) });
  app = await buildApp({ db: database.db, config: { ...config, headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS }, mailer, outbox, logger });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await app.close();
});
beforeEach(() => {
  log = [];
});

async function adminToken() {
  await createUser(t().database, { mailAddr: 'admin@x.test', roleType: 'admin' });
  return login(t().app, 'admin@x.test');
}

const BOUNDARY = '----stalled';
const uploadHead = (token: string) =>
  `POST /api/scan/admin/excel/upload/import HTTP/1.1\r\nHost: x\r\nx-token: ${token}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 5000000\r\n\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="parcels.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n` +
  'PK'.padEnd(64 * 1024, 'x');

/** Writes `data` and waits for the server to close the socket; what it answered, and when. */
async function untilClosed(data: string) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const started = Date.now();
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  socket.on('error', () => undefined);
  socket.write(data);
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
  const timer = setTimeout(() => socket.destroy(), CLOSED_WITHIN_MS + 5_000);
  const afterMs = await closed;
  clearTimeout(timer);
  return { afterMs, received };
}

/** Waits until the log has an entry `msg` matches (the server logs after the socket has gone). */
async function logged(msg: RegExp) {
  for (let i = 0; i < 100 && !log.some((l) => msg.test(l.msg)); i++) await new Promise((r) => setTimeout(r, 50));
  return log.filter((l) => msg.test(l.msg));
}

const errors = () => log.filter((l) => l.level >= 50);

describe('requests that do not arrive', () => {
  it('drops an upload whose body stops arriving: 408 in the envelope, socket closed, no error logged', async () => {
    const { afterMs, received } = await untilClosed(uploadHead(await adminToken()));
    expect(afterMs).toBeLessThan(CLOSED_WITHIN_MS);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual({ code: 'A00001', msg: '参数错误：请求未在限定时间内完整送达，请重试' });
    expect(await logged(/request dropped: not received whole/)).toHaveLength(1);
    expect(await logged(/request abandoned/)).toHaveLength(1);
    expect(errors()).toEqual([]);
  });

  it('drops a connection that sends nothing, and one whose headers never end', async () => {
    for (const data of ['', 'GET /api/notice/get HTTP/1.1\r\nHost: x\r\n']) {
      const { afterMs, received } = await untilClosed(data);
      expect(afterMs).toBeLessThan(CLOSED_WITHIN_MS);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
    }
  });

  it('still receives a request that arrives in time, however slowly its parts come', async () => {
    const token = await adminToken();
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    const body = JSON.stringify({ content: '慢慢来', isMail: false });
    socket.write(
      `POST /api/notice/save HTTP/1.1\r\nHost: x\r\nx-token: ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    await new Promise((r) => setTimeout(r, REQUEST_MS / 3));
    // Not end(): a client's half-close aborts its request in Node's server.
    socket.write(body);
    for (let i = 0; i < 200 && !received.endsWith('}'); i++) await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain('"code":"A00000"');
  });

  it('logs an upload its client aborted as abandoned, not as an error, and answers nothing', async () => {
    const token = await adminToken();
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(uploadHead(token));
    await new Promise((r) => setTimeout(r, 200));
    socket.destroy();
    const entries = await logged(/request abandoned/);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.level).toBe(30);
    expect(errors()).toEqual([]);
    expect(received).toBe('');
  });
});
