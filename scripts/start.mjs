// `npm start` and `npm run demo`: builds the web app and the server when either is missing or older
// than its sources (scripts/build.mjs, saying so and how long it may take), then runs the built
// server (dist-server/main.js) in this process, with the node flags package.json gives this script.
// Plain JavaScript: a start runs no TypeScript loader (decision 018). SKIP_WEB_BUILD=1 skips the web
// app (the API alone).
import console from 'node:console';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { ensureServerBuilt, ensureWebBuilt, SERVER_DIR } from './build.mjs';

try {
  if (process.env.SKIP_WEB_BUILD !== '1') ensureWebBuilt();
  await ensureServerBuilt();
} catch (err) {
  console.error(`Cannot start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
await import(pathToFileURL(path.join(SERVER_DIR, 'main.js')).href);
