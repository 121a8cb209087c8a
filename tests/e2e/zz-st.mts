import { startServer } from './server.ts';
let dir: string | undefined;
for (let i = 0; i < 2; i++) {
const t = performance.now();
const s = await startServer({ ADMIN_EMAIL: 'a@x.test', ADMIN_PASSWORD: 'pass-word-1', ...(dir ? { DATA_DIR: dir } : {}) });
console.log('started in', ((performance.now() - t) / 1000).toFixed(1), 's', s.dataDir);
await s.stop();
dir = s.dataDir;
}
