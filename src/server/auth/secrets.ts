// Passwords: scrypt (memory-hard, N=2^15, r=8, p=1), salted, compared in constant time.
// Tokens: 256 random bits, handed out once, stored only as their SHA-256 (DECISIONS "Accounts").
// scrypt runs on libuv's thread pool, which file reads (static files) and zlib share: at most half
// of the pool hashes at once and the other hashes wait their turn here, so a burst of logins never
// makes a static file wait (docs/decisions/020-password-hashing-gate.md).
import { hash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { tooMany } from '../errors.ts';

const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } satisfies ScryptOptions;
const KEYLEN = 32;

/** Runs at most `limit` tasks at once, the others in arrival order; more than `maxQueue` waiting are refused. */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(
    readonly limit: number,
    readonly maxQueue: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.maxQueue) throw tooMany('服务器繁忙，请稍后再试');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiting task (running stays the same), else frees.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  get queued() {
    return this.waiting.length;
  }
}

const POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE) || 4;
/** Half of libuv's pool (2 of the default 4): the other threads stay free for file reads. */
export const HASH_CONCURRENCY = Math.max(1, Math.floor(POOL_SIZE / 2));
/** ~64 hashes wait ~3 s at 2 at a time (~100 ms each here); beyond that an answer is better than a stall. */
export const HASH_QUEUE_MAX = 64;
const hashGate = new Gate(HASH_CONCURRENCY, HASH_QUEUE_MAX);
let computed = 0;

/** How many scrypt computations this process has started (tests check that refused requests cost none). */
export const hashesComputed = () => computed;

function scrypt(password: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return hashGate.run(
    () =>
      new Promise((resolve, reject) => {
        computed++;
        scryptCb(password.normalize('NFKC'), salt, KEYLEN, params, (err, key) => (err ? reject(err) : resolve(key)));
      }),
  );
}

/** Format: scrypt$N$r$p$salt(b64)$hash(b64), so the parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A fresh random token (base64url, 43 chars = 256 bits). */
export const newToken = () => randomBytes(32).toString('base64url');

// One-shot (every API call hashes its token): the same digest as createHash's, a third of its CPU and no Hash object.
export const hashToken = (token: string) => hash('sha256', token, 'hex');

/** A readable random password for the bootstrap admin. */
export const newPassword = () => randomBytes(12).toString('base64url');
