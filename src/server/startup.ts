// What stops a start, said in one plain line: what is wrong and what to set (main.ts prints it and
// exits with code 1; the stack only at LOG_LEVEL=debug), and the wait for PostgreSQL at start, with
// backoff, as a supervisor starting the database and the server together expects (decision 017).
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from './config.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';

/** A situation the operator fixes: its message is the whole line, without a stack. */
export class StartupError extends Error {}

/** DATABASE_URL without its password, as the log may name it. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}

const hostOf = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}`;
  } catch {
    return url;
  }
};

/**
 * DATA_DIR must be a folder this process can write: it holds the embedded database, mail files, the
 * generated secret and every other file written at run time (nothing is written beside the code).
 */
export function checkDataDirWritable(dataDir: string): void {
  const probe = path.join(dataDir, `.write-check-${process.pid}`);
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new StartupError(
      `DATA_DIR ${dataDir} is not a folder this user can write (${code}): set DATA_DIR to one (it holds the embedded database, mail files and generated secrets).`,
    );
  }
}

/** Connection errors that end when the server comes up: worth waiting for. */
const TRANSIENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', '57P03']);

/** A failed connection to PostgreSQL: what is wrong and what to set; undefined when `err` is not one. */
function databaseProblem(err: { code?: string; message?: string }, url: string): { problem: string; fix: string; transient: boolean } | undefined {
  const at = `PostgreSQL at ${hostOf(url)} (DATABASE_URL)`;
  const name = (() => {
    try {
      return decodeURIComponent(new URL(url).pathname.slice(1));
    } catch {
      return '';
    }
  })();
  if (err.code === '28P01' || err.code === '28000')
    return { problem: `${at} refused the login (${err.message})`, fix: 'set the user and password in DATABASE_URL', transient: false };
  if (err.code === '3D000')
    return { problem: `${at} has no database "${name}"`, fix: `create it (createdb ${name}) or name another in DATABASE_URL`, transient: false };
  const timeout = /timeout/i.test(err.message ?? '');
  if ((err.code && TRANSIENT.has(err.code)) || timeout)
    return { problem: `${at} does not answer (${timeout ? 'timeout' : err.code})`, fix: 'start it, or set DATABASE_URL to one that runs', transient: true };
  return undefined;
}

/**
 * Connects to DATABASE_URL once to see that it answers, waiting up to `waitS` seconds while it does
 * not (backoff 1, 2, 4, 5, 5... s; one line per attempt); a refused login or a missing database
 * ends the start at once, as no wait mends them.
 */
export async function waitForDatabase(url: string, waitS: number, say: (line: string) => void): Promise<void> {
  const { default: pg } = await import('pg');
  const until = Date.now() + waitS * 1000;
  for (let attempt = 1; ; attempt++) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => undefined);
      const found = databaseProblem(err as { code?: string; message?: string }, url);
      if (!found) throw err;
      const delay = Math.min(5, 2 ** (attempt - 1));
      if (!found.transient || Date.now() + delay * 1000 > until) {
        const waited = found.transient && waitS > 0 ? ` (waited ${waitS} s, DATABASE_WAIT)` : '';
        throw new StartupError(`${found.problem}${waited}: ${found.fix}.`);
      }
      say(`${found.problem}: trying again in ${delay} s (attempt ${attempt}; waiting up to ${waitS} s, DATABASE_WAIT)…`);
      await sleep(delay * 1000);
    }
  }
}

/** The one line for an error that ended the start. */
export function startupLine(err: unknown, config: Config | undefined): string {
  if (err instanceof StartupError || err instanceof DataDirInUseError) return err.message;
  const e = (err ?? {}) as NodeJS.ErrnoException & { port?: number; address?: string; hostname?: string };
  if (config && e.syscall === 'listen') {
    const which = e.port === config.metricsPort && e.port !== config.port ? 'METRICS_PORT' : 'PORT';
    if (e.code === 'EADDRINUSE') return `${which} ${e.port} is in use by another program: stop it, or set ${which} to a free port.`;
    if (e.code === 'EACCES') return `${which} ${e.port} needs privileges this user lacks (EACCES): set ${which} to 1024 or above.`;
    if (e.code === 'EADDRNOTAVAIL') return `HOST ${e.address ?? config.host} is not an address of this machine: set HOST (0.0.0.0: every address).`;
  }
  // A name to listen on that does not resolve (a database host's is the database's line below).
  const listenHost = e.hostname === config?.host ? 'HOST' : e.hostname === config?.metricsHost ? 'METRICS_HOST' : undefined;
  if (listenHost && e.syscall === 'getaddrinfo')
    return `${listenHost} ${e.hostname} is not a name this machine resolves: set ${listenHost} to an address (0.0.0.0: every address).`;
  if (config?.databaseUrl) {
    const found = databaseProblem(e, config.databaseUrl);
    if (found) return `${found.problem}: ${found.fix}.`;
  }
  if (config && ['EROFS', 'EACCES', 'EPERM', 'ENOSPC'].includes(e.code ?? '') && (e.path ?? '').startsWith(config.dataDir))
    return `DATA_DIR ${config.dataDir} cannot be written (${e.code}): set DATA_DIR to a folder this user can write.`;
  return `${e.message ?? String(err)} (LOG_LEVEL=debug prints where it happened).`;
}
