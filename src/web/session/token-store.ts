// Where the session token lives in the browser (SPEC §9): local storage under fixed keys, with the
// keep-login flag beside it and no expiry of its own (the server decides how long a token lives).
// When local storage is unavailable (private modes, disabled storage, sandboxed frames) the same
// keys go into cookies that last 365 days.

export const TOKEN_KEY = 'token';
export const KEEP_FLAG_KEY = 'keepflag';
export const COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export interface StoredToken {
  token: string;
  /** keep-me-logged-in: the server gives such a token a longer life (x-keepflag "1"). */
  keep: boolean;
}

export interface TokenStore {
  read(): StoredToken | null;
  write(value: StoredToken): void;
  clear(): void;
  /** Which backend this store ended up using (for diagnostics and tests). */
  readonly backend: 'localStorage' | 'cookie' | 'memory';
}

interface KeyValue {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

/** Local storage if it can really be written to; null otherwise (access itself may throw). */
export function probeLocalStorage(getStorage: () => Storage | undefined): Storage | null {
  try {
    const storage = getStorage();
    if (!storage) return null;
    const probe = '__storage_probe__';
    storage.setItem(probe, probe);
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}

function storageBackend(storage: Storage): KeyValue {
  return {
    get: (key) => storage.getItem(key),
    set: (key, value) => storage.setItem(key, value),
    remove: (key) => storage.removeItem(key),
  };
}

function cookieBackend(doc: Pick<Document, 'cookie'>): KeyValue {
  return {
    get(key) {
      for (const part of doc.cookie.split(';')) {
        const eq = part.indexOf('=');
        if (eq < 0) continue;
        if (part.slice(0, eq).trim() === key) return decodeURIComponent(part.slice(eq + 1).trim());
      }
      return null;
    },
    set(key, value) {
      doc.cookie = `${key}=${encodeURIComponent(value)}; max-age=${COOKIE_MAX_AGE_SECONDS}; path=/; SameSite=Lax`;
    },
    remove(key) {
      doc.cookie = `${key}=; max-age=0; path=/; SameSite=Lax`;
    },
  };
}

function memoryBackend(): KeyValue {
  const values = new Map<string, string>();
  return {
    get: (key) => values.get(key) ?? null,
    set: (key, value) => void values.set(key, value),
    remove: (key) => void values.delete(key),
  };
}

export interface TokenStoreEnv {
  /** Returns the local storage to use; may throw (as browsers do when storage is blocked). */
  localStorage?: () => Storage | undefined;
  /** Used for the cookie fallback. */
  document?: Pick<Document, 'cookie'>;
}

function defaultEnv(): TokenStoreEnv {
  return {
    localStorage: () => (typeof window === 'undefined' ? undefined : window.localStorage),
    document: typeof document === 'undefined' ? undefined : document,
  };
}

export function createTokenStore(env: TokenStoreEnv = defaultEnv()): TokenStore {
  const storage = env.localStorage ? probeLocalStorage(env.localStorage) : null;
  const backendName: TokenStore['backend'] = storage ? 'localStorage' : env.document ? 'cookie' : 'memory';
  const kv = storage ? storageBackend(storage) : env.document ? cookieBackend(env.document) : memoryBackend();

  return {
    backend: backendName,
    read() {
      const token = kv.get(TOKEN_KEY);
      if (!token) return null;
      return { token, keep: kv.get(KEEP_FLAG_KEY) === '1' };
    },
    write({ token, keep }) {
      kv.set(TOKEN_KEY, token);
      kv.set(KEEP_FLAG_KEY, keep ? '1' : '0');
    },
    clear() {
      kv.remove(TOKEN_KEY);
      kv.remove(KEEP_FLAG_KEY);
    },
  };
}

let shared: TokenStore | null = null;

/** The app's token store, created on first use (so importing this module touches no storage). */
export function getTokenStore(): TokenStore {
  shared ??= createTokenStore();
  return shared;
}
