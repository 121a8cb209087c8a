// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { COOKIE_MAX_AGE_SECONDS, KEEP_FLAG_KEY, TOKEN_KEY, createTokenStore, probeLocalStorage } from '../../src/web/session/token-store';

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; max-age=0; path=/`;
  }
}

afterEach(() => {
  window.localStorage.clear();
  clearCookies();
});

describe('token store with local storage', () => {
  it("uses the fixed keys 'token' and 'keepflag'", () => {
    expect(TOKEN_KEY).toBe('token');
    expect(KEEP_FLAG_KEY).toBe('keepflag');
  });

  it('writes, reads and clears the token with its keep flag', () => {
    const store = createTokenStore();
    expect(store.backend).toBe('localStorage');
    expect(store.read()).toBeNull();

    store.write({ token: 'abc', keep: true });
    expect(window.localStorage.getItem('token')).toBe('abc');
    expect(window.localStorage.getItem('keepflag')).toBe('1');
    expect(store.read()).toEqual({ token: 'abc', keep: true });

    store.write({ token: 'def', keep: false });
    expect(store.read()).toEqual({ token: 'def', keep: false });

    store.clear();
    expect(store.read()).toBeNull();
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('keepflag')).toBeNull();
    expect(document.cookie).not.toContain('token=');
  });

  it('reads a token another tab stored', () => {
    window.localStorage.setItem('token', 'from-elsewhere');
    expect(createTokenStore().read()).toEqual({ token: 'from-elsewhere', keep: false });
  });
});

describe('token store cookie fallback', () => {
  const blockedStorage = () => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  };
  const fullStorage = (): Storage =>
    ({
      getItem: () => null,
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
      removeItem: () => {},
    }) as unknown as Storage;

  it('probes local storage safely', () => {
    expect(probeLocalStorage(() => window.localStorage)).toBe(window.localStorage);
    expect(probeLocalStorage(blockedStorage)).toBeNull();
    expect(probeLocalStorage(fullStorage)).toBeNull();
    expect(probeLocalStorage(() => undefined)).toBeNull();
  });

  it.each([
    ['access throws', blockedStorage],
    ['writes throw', fullStorage],
  ])('uses cookies when local storage %s', (_, localStorage) => {
    const store = createTokenStore({ localStorage, document });
    expect(store.backend).toBe('cookie');

    store.write({ token: 'tok/with=chars', keep: true });
    expect(document.cookie).toContain('token=tok%2Fwith%3Dchars');
    expect(document.cookie).toContain('keepflag=1');
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(store.read()).toEqual({ token: 'tok/with=chars', keep: true });

    store.clear();
    expect(store.read()).toBeNull();
  });

  it('sets the cookies for 365 days on the whole site', () => {
    const written: string[] = [];
    const fakeDocument = {
      get cookie() {
        return '';
      },
      set cookie(value: string) {
        written.push(value);
      },
    };
    createTokenStore({ localStorage: blockedStorage, document: fakeDocument }).write({ token: 't', keep: false });
    expect(COOKIE_MAX_AGE_SECONDS).toBe(365 * 24 * 60 * 60);
    expect(written).toEqual([
      `token=t; max-age=${COOKIE_MAX_AGE_SECONDS}; path=/; SameSite=Lax`,
      `keepflag=0; max-age=${COOKIE_MAX_AGE_SECONDS}; path=/; SameSite=Lax`,
    ]);
  });

  it('keeps the token in memory when neither storage nor cookies exist', () => {
    const store = createTokenStore({ localStorage: blockedStorage });
    expect(store.backend).toBe('memory');
    store.write({ token: 'm', keep: true });
    expect(store.read()).toEqual({ token: 'm', keep: true });
  });
});
