// `npm start`: build the web app when it is missing or stale, open the database (PGlite in DATA_DIR
// unless DATABASE_URL, one process per folder), apply migrations, create the bootstrap admin, serve
// web and API on PORT (and the metrics on METRICS_PORT when set); SIGTERM/SIGINT stop it within 10 s
// (lifecycle.ts).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { loadConfig, resolveAppSecret } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { prepareGracefulStop } from './lifecycle.ts';
import { buildApp } from './app.ts';
import { ensureBootstrapAdmin } from './bootstrap.ts';
import { seedDemo, DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo.ts';
import { createMailer } from './mail/mailer.ts';
import { startOutboxWorker } from './mail/outbox.ts';
import { createLogger } from './logger.ts';

const WEB_INPUTS = ['index.html', 'login.html', 'vite.config.ts', 'package.json', 'src/web', 'src/api', 'machines'];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return fs.readdirSync(p).reduce((m, name) => Math.max(m, newestMtime(path.join(p, name))), st.mtimeMs);
}

/** Rebuilds dist/ when it is missing or older than any web source. */
function ensureWebBuilt(webDir: string) {
  const index = path.join(webDir, 'index.html');
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const source = Math.max(...WEB_INPUTS.map(newestMtime));
  if (built >= source) return;
  console.log(built ? 'The web app is older than its sources: rebuilding…' : 'Building the web app…');
  const r = spawnSync(process.execPath, [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--outDir', webDir, '--emptyOutDir'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('web build failed');
}

async function main() {
  const config = loadConfig();
  if (process.env.SKIP_WEB_BUILD !== '1') ensureWebBuilt(config.webDir);
  fs.mkdirSync(config.dataDir, { recursive: true });
  config.appSecret = resolveAppSecret(config);
  const log = createLogger(config.logLevel);

  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    lock: { onWait: (h) => console.log(`DATA_DIR ${config.dataDir} is held by server process ${h.pid}, which is stopping: waiting for it (up to 15 s)…`) },
  });
  const boot = await ensureBootstrapAdmin(database.db, config.adminEmail, config.adminPassword);
  if (boot.created) {
    console.log(`\nBootstrap admin created: ${boot.mailAddr}`);
    if (boot.generatedPassword) console.log(`Generated password (shown only this once): ${boot.generatedPassword}\n`);
  }
  if (config.demo && (await seedDemo(database.db))) {
    console.log(`Demo data added. Demo accounts (password ${DEMO_PASSWORD}): ${DEMO_ACCOUNTS.map((a) => `${a.mailAddr} (${a.roleType})`).join(', ')}`);
  }

  const mailer = createMailer({ smtpUrl: config.smtpUrl, smtpBackupUrl: config.smtpBackupUrl, from: config.mailFrom, dataDir: config.dataDir, log });
  const outbox = startOutboxWorker(database.db, mailer, log);
  const app = await buildApp({ db: database.db, config, mailer, outbox, logger: log });
  const stop = prepareGracefulStop(app, {
    log,
    announce: () => {
      database.markStopping();
      app.appCtx.readiness.markStopping();
    },
    closeRest: async () => {
      await outbox.stop();
      mailer.close();
      await database.close();
    },
  });
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  outbox.kick();
  const port = (app.server.address() as { port: number }).port;
  // Metrics on a port of their own, never the app's; closed with the app.
  const metricsAt = app.metrics && config.metricsPort !== undefined ? await app.metrics.listen(config.metricsHost, config.metricsPort) : null;
  console.log(`\nPurchase Hub is running: http://localhost:${port}  (database: ${database.driver === 'pg' ? 'PostgreSQL' : `PGlite in ${config.dataDir}`})`);
  if (metricsAt) console.log(`Metrics: http://${metricsAt.family === 'IPv6' ? `[${metricsAt.address}]` : metricsAt.address}:${metricsAt.port}/metrics`);
}

main().catch((err) => {
  // A folder in use is an operator's situation, not a crash: its message says what to do.
  console.error(err instanceof DataDirInUseError ? err.message : err);
  process.exit(1);
});
