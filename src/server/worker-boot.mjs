// The entry of a worker thread whose code is TypeScript (files/upload-jobs.ts): on Node 20 a
// worker does not take the main thread's `--import tsx`, so tsx's loader is registered here before
// the module named in workerData.entry is imported. Plain JavaScript, like files/sheet-worker.mjs.
// From the sources only: the build starts its own JavaScript worker (run-files.ts, decision 018).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
