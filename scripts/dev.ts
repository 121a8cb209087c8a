// `npm run dev`: the API server (restarted on change by tsx watch) and vite's dev server with
// /api and /ext proxied to it. API_PORT (default 3000) is the server's port; vite prints its own.
import { spawn } from 'node:child_process';
import path from 'node:path';

const apiPort = process.env.API_PORT ?? '3000';
const env = { ...process.env, PORT: apiPort, API_PORT: apiPort, SKIP_WEB_BUILD: '1' };
const children = [
  spawn(path.resolve('node_modules/.bin/tsx'), ['watch', '--clear-screen=false', 'src/server/main.ts'], { stdio: 'inherit', env }),
  spawn(process.execPath, [path.resolve('node_modules/vite/bin/vite.js')], { stdio: 'inherit', env }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
