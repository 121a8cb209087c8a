// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import {
  FORM_URLENCODED,
  classifyResponse,
  createApiClient,
  extractMessage,
  multipartBody,
  sessionSignals,
  type SessionSignal,
} from '../../src/api/client';

describe('extractMessage (SPEC §8 message fields)', () => {
  it.each([
    [{ msg: 'from msg', errorMsg: 'x' }, 'from msg'],
    [{ errorMsg: 'from errorMsg', error: 'x' }, 'from errorMsg'],
    [{ error_description: 'from error_description', error_msg: 'x' }, 'from error_description'],
    [{ error_msg: 'from error_msg', error: 'x' }, 'from error_msg'],
    [{ error: 'from error' }, 'from error'],
  ])('takes the first present field of %j', (body, expected) => {
    expect(extractMessage(body)).toBe(expected);
  });

  it.each([[{}], [{ msg: '' }], [{ msg: '   ', error: 42 }], [null], [undefined], ['plain text'], [[1, 2]]])(
    "falls back to 'unknown error' for %j",
    (body) => {
      expect(extractMessage(body)).toBe('unknown error');
    },
  );

  it('skips empty fields and takes the next one', () => {
    expect(extractMessage({ msg: '', errorMsg: 'second' })).toBe('second');
  });
});

describe('classifyResponse (SPEC §8)', () => {
  it('a response without a code is success', () => {
    expect(classifyResponse(200, { data: { anything: 1 } })).toEqual({ kind: 'ok' });
    expect(classifyResponse(200, undefined)).toEqual({ kind: 'ok' });
    expect(classifyResponse(204, undefined)).toEqual({ kind: 'ok' });
  });

  it('A00000 is success', () => {
    expect(classifyResponse(200, { code: 'A00000', data: { status: 'failed' } })).toEqual({ kind: 'ok' });
  });

  it("A00000 with data.opStatus other than 'succ' is an error toast with the message", () => {
    expect(classifyResponse(200, { code: 'A00000', msg: 'top', data: { opStatus: 'failed' } })).toEqual({
      kind: 'op.failed',
      message: 'top',
    });
    expect(classifyResponse(200, { code: 'A00000', data: { opStatus: 'failed', msg: 'inner' } })).toEqual({
      kind: 'op.failed',
      message: 'inner',
    });
    expect(classifyResponse(200, { data: { opStatus: 'error' } })).toEqual({ kind: 'op.failed', message: 'unknown error' });
  });

  it("opStatus 'succ' is success", () => {
    expect(classifyResponse(200, { code: 'A00000', data: { opStatus: 'succ' } })).toEqual({ kind: 'ok' });
  });

  it('HTTP 401 or A00002 is token.expired', () => {
    expect(classifyResponse(401, { code: 'A00002', msg: 'no token' })).toEqual({ kind: 'token.expired' });
    expect(classifyResponse(401, undefined)).toEqual({ kind: 'token.expired' });
    expect(classifyResponse(200, { code: 'A00002' })).toEqual({ kind: 'token.expired' });
  });

  it("legacy codes 401 and 'unauthorized' are token.expired too", () => {
    expect(classifyResponse(200, { code: 401 })).toEqual({ kind: 'token.expired' });
    expect(classifyResponse(200, { code: 'unauthorized' })).toEqual({ kind: 'token.expired' });
  });

  it('A00003 is no.access', () => {
    expect(classifyResponse(403, { code: 'A00003', msg: '无权限' })).toEqual({ kind: 'no.access' });
    expect(classifyResponse(403, undefined)).toEqual({ kind: 'no.access' });
  });

  it('codes 301 and 302 show no toast', () => {
    expect(classifyResponse(200, { code: '301' })).toEqual({ kind: 'redirect' });
    expect(classifyResponse(200, { code: 302 })).toEqual({ kind: 'redirect' });
  });

  it.each([
    ['A00001', 400, { code: 'A00001', msg: '参数错误' }, '参数错误'],
    ['A00004', 404, { code: 'A00004', errorMsg: '不存在' }, '不存在'],
    ['A00004', 409, { code: 'A00004', error_description: '冲突' }, '冲突'],
    ['A00005', 500, { code: 'A00005', error_msg: '系统错误' }, '系统错误'],
    ['A00005', 500, { code: 'A00005' }, 'unknown error'],
  ])('%s (HTTP %i) is an error with code and message', (code, status, body, message) => {
    expect(classifyResponse(status, body)).toEqual({ kind: 'error', code, message });
  });

  it('a non-JSON error response is an error named by its HTTP status', () => {
    expect(classifyResponse(502, undefined)).toEqual({ kind: 'error', code: 'HTTP 502', message: 'unknown error' });
  });
});

// ------------------------------------------------------------------ the middleware, on a fake fetch

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function setup(reply: (request: Request) => Response, token: { token: string; keep: boolean } | null = { token: 'tok', keep: true }) {
  const requests: Request[] = [];
  const notifyError = vi.fn<(message: string) => void>();
  const signals: SessionSignal[] = [];
  const api = createApiClient({
    baseUrl: 'http://localhost',
    fetch: async (request) => {
      requests.push(request);
      return reply(request);
    },
    readToken: () => token,
    notifyError,
    onSessionSignal: (signal) => signals.push(signal),
  });
  return { api, requests, notifyError, signals };
}

describe('API client middleware', () => {
  it('sends x-token and x-keepflag from the token store', async () => {
    const { api, requests } = setup(() => json({ code: 'A00000', data: { content: 'hi' } }));
    const { data } = await api.GET('/api/notice/get');
    expect(data?.data?.content).toBe('hi');
    expect(requests[0]?.headers.get('x-token')).toBe('tok');
    expect(requests[0]?.headers.get('x-keepflag')).toBe('1');
  });

  it('sends keepflag 0 for a non-kept token and nothing without a token', async () => {
    const kept = setup(() => json({ code: 'A00000' }), { token: 't2', keep: false });
    await kept.api.GET('/api/notice/get');
    expect(kept.requests[0]?.headers.get('x-keepflag')).toBe('0');

    const none = setup(() => json({ code: 'A00000' }), null);
    await none.api.GET('/api/notice/get');
    expect(none.requests[0]?.headers.has('x-token')).toBe(false);
    expect(none.requests[0]?.headers.has('x-keepflag')).toBe(false);
  });

  it('keeps an explicit x-token', async () => {
    const { api, requests } = setup(() => json({ code: 'A00000' }));
    await api.POST('/ext/login/logout', { headers: { 'x-token': 'explicit' } });
    expect(requests[0]?.headers.get('x-token')).toBe('explicit');
  });

  it('toasts "code message" for a non-success code', async () => {
    const { api, notifyError, signals } = setup(() => json({ code: 'A00001', msg: '参数错误' }, 400));
    const { error } = await api.GET('/api/notice/get');
    expect(error).toMatchObject({ code: 'A00001' });
    expect(notifyError).toHaveBeenCalledWith('A00001 参数错误');
    expect(signals).toEqual([]);
  });

  it('toasts a failed opStatus', async () => {
    const { api, notifyError } = setup(() => json({ code: 'A00000', msg: '扫描失败', data: { opStatus: 'failed' } }));
    await api.GET('/api/notice/get');
    expect(notifyError).toHaveBeenCalledWith('扫描失败');
  });

  it('emits token.expired on 401 and no.access on A00003, without an error toast', async () => {
    const expired = setup(() => json({ code: 'A00002', msg: 'expired' }, 401));
    await expired.api.GET('/api/user/info');
    expect(expired.signals).toEqual([{ type: 'token.expired' }]);
    expect(expired.notifyError).not.toHaveBeenCalled();

    const denied = setup(() => json({ code: 'A00003', msg: 'no' }, 403));
    await denied.api.GET('/api/user/info');
    expect(denied.signals).toEqual([{ type: 'no.access' }]);
    expect(denied.notifyError).not.toHaveBeenCalled();
  });

  it('a silent call shows no toast but still emits session signals', async () => {
    const failing = setup(() => json({ code: 'A00001', msg: 'bad' }, 400));
    await failing.api.GET('/api/notice/get', { silent: true });
    expect(failing.notifyError).not.toHaveBeenCalled();

    const expired = setup(() => json({ code: 'A00002' }, 401));
    await expired.api.GET('/api/notice/get', { silent: true });
    expect(expired.signals).toEqual([{ type: 'token.expired' }]);
  });

  it('the x-silent header works too and is not sent', async () => {
    const { api, requests, notifyError } = setup(() => json({ code: 'A00005', msg: 'boom' }, 500));
    await api.GET('/api/notice/get', { headers: { 'x-silent': '1' } });
    expect(notifyError).not.toHaveBeenCalled();
    expect(requests[0]?.headers.has('x-silent')).toBe(false);
  });

  it('a network failure toasts and rejects', async () => {
    const notifyError = vi.fn();
    const api = createApiClient({
      baseUrl: 'http://localhost',
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
      readToken: () => null,
      notifyError,
      onSessionSignal: () => {},
    });
    await expect(api.GET('/api/notice/get')).rejects.toThrow('Failed to fetch');
    expect(notifyError).toHaveBeenCalledTimes(1);
  });

  it('sends form calls URL-encoded', async () => {
    const { api, requests } = setup(() => json({ code: 'A00000', data: [] }));
    await api.POST('/api/admin/invite', { body: { mails: 'a@x.com,b@x.com' }, headers: FORM_URLENCODED });
    expect(requests[0]?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(await requests[0]?.text()).toBe('mails=a%40x.com%2Cb%40x.com');
  });

  it('the default client forwards signals through sessionSignals', () => {
    const seen: SessionSignal[] = [];
    const off = sessionSignals.subscribe((signal) => seen.push(signal));
    sessionSignals.emit({ type: 'no.access' });
    off();
    sessionSignals.emit({ type: 'token.expired' });
    expect(seen).toEqual([{ type: 'no.access' }]);
  });
});

describe('multipartBody', () => {
  it('builds FormData with files, repeated fields and text', () => {
    const file = new File(['a,b'], 'rows.csv', { type: 'text/csv' });
    const form = multipartBody({ file, ids: [1, 2], note: 'x', skip: undefined, none: null });
    expect(form.get('file')).toBeInstanceOf(Blob);
    expect(form.getAll('ids')).toEqual(['1', '2']);
    expect(form.get('note')).toBe('x');
    expect(form.has('skip')).toBe(false);
    expect(form.has('none')).toBe(false);
  });
});
