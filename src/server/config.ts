// Every setting the server reads, in one place (README "Settings" lists the same).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export interface Config {
  port: number;
  host: string;
  /** Time a client has to send a request's headers, then the whole request with its body (ms). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  dataDir: string;
  /** postgres://... uses a PostgreSQL server; empty uses PGlite in dataDir. */
  databaseUrl: string | undefined;
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
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const host = env.HOST ?? '0.0.0.0';
  // 120 s: a 10 MB upload over a slow phone uplink (~0.7 Mbit/s) still arrives whole.
  const requestTimeoutS = Number(env.REQUEST_TIMEOUT ?? 120);
  if (!Number.isInteger(requestTimeoutS) || requestTimeoutS < 10) throw new Error(`REQUEST_TIMEOUT must be a whole number of seconds >= 10, got ${env.REQUEST_TIMEOUT}`);
  return {
    port,
    host,
    headersTimeoutMs: 30_000,
    requestTimeoutMs: requestTimeoutS * 1000,
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
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
  };
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
