// Every setting the server reads, in one place (README "Settings" lists the same).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { NOT_ARRIVED_AFTER_DAYS } from '../../machines/scan-record.machine.ts';

export interface Config {
  port: number;
  host: string;
  /** Time a client has to send a request's headers, then the whole request with its body (ms). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  dataDir: string;
  /** postgres://... uses a PostgreSQL server; empty uses PGlite in dataDir. */
  databaseUrl: string | undefined;
  /** Seconds a start waits for DATABASE_URL to answer, trying again with backoff (decision 017). */
  databaseWaitS: number;
  smtpUrl: string | undefined;
  smtpBackupUrl: string | undefined;
  /** Mail sender address. */
  mailFrom: string;
  /** Secret for encrypting bank card fields; generated into dataDir when empty. */
  appSecret: string | undefined;
  adminEmail: string;
  adminPassword: string | undefined;
  /** Absolute address used in mailed links. */
  appUrl: string;
  demo: boolean;
  /** Directory of the built web app. */
  webDir: string;
  logLevel: string;
  /**
   * Whose X-Forwarded-For to believe (Fastify's trustProxy): false (default) takes the client's IP
   * from the socket, so a client cannot choose the IP the rate limits count; true or the proxies'
   * addresses when the server runs behind a reverse proxy.
   */
  trustProxy: boolean | string[];
  /**
   * Where the Prometheus metrics are served (ops/metrics.ts): a port of their own, never the app's,
   * bound to metricsHost (loopback unless told otherwise). Undefined: no metrics are kept.
   */
  metricsPort: number | undefined;
  metricsHost: string;
  /**
   * Strict-Transport-Security's max-age in seconds (HSTS_MAX_AGE), sent on every answer; undefined
   * (default): not sent. For a server reached only through a TLS-terminating proxy: the browser then
   * refuses plain http for that long, so it is off unless the operator says so.
   */
  hstsMaxAge: number | undefined;
  /**
   * Days after which a recorded tracking id no scan has seen is a missing parcel (MISSING_PARCEL_DAYS,
   * decision 077): flagged to its member, listed for the admins, counted on the admin home.
   */
  missingParcelDays: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const host = env.HOST ?? '0.0.0.0';
  // 120 s: a 10 MB upload over a slow phone uplink (~0.7 Mbit/s) still arrives whole.
  const requestTimeoutS = Number(env.REQUEST_TIMEOUT ?? 120);
  if (!Number.isInteger(requestTimeoutS) || requestTimeoutS < 10)
    throw new Error(`REQUEST_TIMEOUT must be a whole number of seconds >= 10, got ${env.REQUEST_TIMEOUT}`);
  const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : undefined;
  if (metricsPort !== undefined && (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65535 || (metricsPort === port && port !== 0)))
    throw new Error(`METRICS_PORT must be a port number other than PORT, got ${env.METRICS_PORT}`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/[^/]/.test(databaseUrl))
    throw new Error('DATABASE_URL must be postgres://user@host:5432/database (empty: the embedded database in DATA_DIR)');
  const databaseWaitS = Number(env.DATABASE_WAIT ?? 30);
  if (!Number.isInteger(databaseWaitS) || databaseWaitS < 0) throw new Error(`DATABASE_WAIT must be a whole number of seconds >= 0, got ${env.DATABASE_WAIT}`);
  const hstsMaxAge = env.HSTS_MAX_AGE ? Number(env.HSTS_MAX_AGE) : undefined;
  if (hstsMaxAge !== undefined && (!/^\d+$/.test(env.HSTS_MAX_AGE!.trim()) || !Number.isSafeInteger(hstsMaxAge)))
    throw new Error(`HSTS_MAX_AGE must be a whole number of seconds (e.g. 31536000), got ${env.HSTS_MAX_AGE}`);
  const missingParcelDays = Number(env.MISSING_PARCEL_DAYS || NOT_ARRIVED_AFTER_DAYS);
  // 0: every recorded parcel the warehouse has not seen is listed at once (a group that chases at once; the browser tests).
  if (!/^\d{1,3}$/.test(String(missingParcelDays)) || missingParcelDays > 365)
    throw new Error(`MISSING_PARCEL_DAYS must be a whole number of days from 0 to 365, got ${env.MISSING_PARCEL_DAYS}`);
  return {
    port,
    host,
    headersTimeoutMs: 30_000,
    requestTimeoutMs: requestTimeoutS * 1000,
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl,
    databaseWaitS,
    smtpUrl: env.SMTP_URL || undefined,
    smtpBackupUrl: env.SMTP_BACKUP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Purchase Hub <no-reply@purchase-hub.local>',
    appSecret: env.APP_SECRET || undefined,
    adminEmail: (env.ADMIN_EMAIL ?? 'admin@example.com').trim().toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    appUrl: (env.APP_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    demo: env.DEMO === '1' || env.DEMO === 'true',
    webDir: path.resolve(env.WEB_DIR ?? './dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    metricsPort,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    hstsMaxAge,
    missingParcelDays,
  };
}

/** proxy-addr's named ranges, which Fastify accepts beside addresses and CIDRs. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(s: string): boolean {
  if (NAMED_RANGES.has(s)) return true;
  const [ip, bits, ...rest] = s.split('/');
  const family = net.isIP(ip ?? '');
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return net.isIP(bits) === family; // a netmask such as 255.255.255.0
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: empty or false (off), true, or comma-separated proxy addresses / CIDRs. A hop count
 * is refused: Fastify 5 takes a number but then trusts no proxy at all (a hop count cannot tell the
 * proxy from a client that connects directly), so it would silently count the proxy's IP.
 */
export function parseTrustProxy(value: string | undefined): boolean | string[] {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) throw new Error(`TRUST_PROXY does not take a hop count (${value}): give the proxy's addresses, e.g. TRUST_PROXY=127.0.0.1`);
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.find((s) => !isAddressOrCidr(s));
  if (bad !== undefined || !list.length) {
    throw new Error(`TRUST_PROXY must be true, false or comma-separated proxy addresses (CIDR allowed), got ${value}`);
  }
  return list;
}

/**
 * APP_SECRET, or on the embedded default a random key generated once into DATA_DIR/app-secret
 * (mode 0600) so encrypted fields stay readable across restarts (DECISIONS "Money").
 */
export function resolveAppSecret(config: Config): string {
  if (config.appSecret) return config.appSecret;
  const file = path.join(config.dataDir, 'app-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}
