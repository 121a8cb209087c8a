// The server's entry: open the database (PGlite in DATA_DIR unless DATABASE_URL, one process per
// folder; PostgreSQL waited for up to DATABASE_WAIT s), apply migrations, create the bootstrap admin,
// serve web and API on PORT (and the metrics on METRICS_PORT when set); SIGTERM/SIGINT stop it within
// 10 s (lifecycle.ts). `npm start` runs it built (scripts/start.mjs builds the web app and this
// first, decision 018); the tests run it from source. What stops a start is one plain line and exit
// code 1 (startup.ts, decision 017).
import { loadConfig, resolveAppSecret, type Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { rekeyCollisionsLine } from './receiving/tracking-rekeys.ts';
import { prepareGracefulStop } from './lifecycle.ts';
import { buildApp } from './app.ts';
import { ensureBootstrapAdmin } from './bootstrap.ts';
import { seedDemo, DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo.ts';
import { createMailer } from './mail/mailer.ts';
import { startOutboxWorker } from './mail/outbox.ts';
import { createLogger } from './logger.ts';
import { checkDataDirWritable, safeUrl, startupLine, StartupError, waitForDatabase } from './startup.ts';

/** The settings, once read: a failure's line names what they say. */
let settings: Config | undefined;

function readSettings(): Config {
  try {
    return loadConfig();
  } catch (err) {
    throw new StartupError(`${(err as Error).message}.`);
  }
}

async function main() {
  const config = (settings = readSettings());
  checkDataDirWritable(config.dataDir);
  config.appSecret = resolveAppSecret(config);
  const log = createLogger(config.logLevel);

  if (config.databaseUrl) {
    console.log(`Connecting to PostgreSQL at ${safeUrl(config.databaseUrl)}…`);
    await waitForDatabase(config.databaseUrl, config.databaseWaitS, (line) => console.log(line));
  }
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    lock: { onWait: (h) => console.log(`DATA_DIR ${config.dataDir} is held by server process ${h.pid}, which is stopping: waiting for it (up to 15 s)…`) },
  });
  const rekeyed = await rekeyCollisionsLine(database.db);
  if (rekeyed) console.log(rekeyed);
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
  // One plain line: what is wrong and what to set; where it happened only when asked for.
  console.error(`Cannot start: ${startupLine(err, settings)}`);
  if (['debug', 'trace'].includes(settings?.logLevel ?? process.env.LOG_LEVEL ?? '')) console.error(err);
  process.exit(1);
});
