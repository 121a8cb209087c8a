// The upload worker (files/upload-jobs.ts): runs the purchased and tracking uploads of this process
// on database connections of its own, so their work never holds the thread that answers requests.
// It answers each request by its id (an upload, the parse queue's state); `close` ends its connections.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/client.ts';
import { parseQueueState } from './parse-sheet.ts';
import { runUploadJob, toWire, type WorkerAnswer, type WorkerRequest } from './upload-jobs.ts';

const port = parentPort!;
const { url } = workerData as { url: string };
// The server's thread migrated the database before it started taking requests. Opened again by the
// next job when opening failed (the database was unreachable then): a failure is not kept.
let opened: ReturnType<typeof openDatabase> | undefined;
const database = () =>
  (opened ??= openDatabase({ url, migrated: true }).catch((err: unknown) => {
    opened = undefined;
    throw err;
  }));

const answer = (a: WorkerAnswer, transfer: ArrayBuffer[] = []) => port.postMessage(a, transfer);

port.on('message', (request: WorkerRequest) => {
  void (async () => {
    const { id } = request;
    try {
      if ('run' in request) {
        const { bytes, ...job } = request.run;
        const body = await runUploadJob((await database()).db, { ...job, bytes: bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null });
        // A copy of its own to hand over (a small Buffer shares Node's pool with others).
        const out = new Uint8Array(body);
        answer({ id, body: out }, [out.buffer as ArrayBuffer]);
      } else if ('state' in request) {
        answer({ id, state: parseQueueState() });
      } else {
        await (await database()).close();
        answer({ id, closed: true });
      }
    } catch (err) {
      answer({ id, error: toWire(err) });
    }
  })();
});
