// Starts the real server for a browser test file through the tests' one server starter
// (tests/server/support/server-process.ts spawnServer: npm start's launcher and build in a process of
// its own), adding what the browser needs: a known port (the mailed links carry APP_URL), a fresh
// embedded database copied from the migrated template (tests/server/support/data-template.ts) and
// the built web app in dist/.
import fs from 'node:fs';
import path from 'node:path';
import { migratedDataDir } from '../server/support/data-template.ts';
import { freePort, spawnServer } from '../server/support/server-process.ts';

export interface RunningServer {
  url: string;
  dataDir: string;
  output: () => string;
  /** Stops the process (SIGTERM, then waits for it) and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * The server on a fresh copy of the template database; resolves once it is up. A server that does
 * not come up is killed before the error is thrown.
 */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = await migratedDataDir('ph-e2e-');
  const url = `http://127.0.0.1:${port}`;
  const server = spawnServer({ PORT: String(port), DATA_DIR: dataDir, APP_URL: url, WEB_DIR: path.resolve('dist'), LOG_LEVEL: 'warn', ...env });
  const stop = async (signal: NodeJS.Signals) => {
    if (server.proc.exitCode === null && server.proc.signalCode === null) server.proc.kill(signal);
    await server.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await server.ready;
  } catch (e) {
    await stop('SIGKILL');
    throw e;
  }
  return { url, dataDir, output: server.output, stop: () => stop('SIGTERM') };
}

/** Debian's chromium (scripts/chromium.ts, shared with the bench). */
export { launchChromium } from '../../scripts/chromium.ts';

export const SCREENSHOT_DIR = path.resolve('test-results/e2e');
