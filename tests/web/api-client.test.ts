// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import {
  FORM_URLENCODED,
  classifyResponse,
  createApiClient,
  errorText,
  extractMessage,
  multipartBody,
  sessionSignals,
  type SessionSignal,
} from '../../src/api/client';
import type { UploadProgress } from '../../src/api/upload';
import { json } from './support/fake-api';
import { fakeXhr, type FetchLike, type UploadScript } from './support/fake-xhr';

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

  it.each([[{}], [{ msg: '' }], [{ msg: '   ', error: 42 }], [null], [undefined], ['plain text'], [[1, 2]]])("falls back to 'unknown error' for %j", (body) => {
    expect(extractMessage(body)).toBe('unknown error');
  });

  it('skips empty fields and takes the next one', () => {
    expect(extractMessage({ msg: '', errorMsg: 'second' })).toBe('second');
  });
});

describe('errorText (SPEC §8 error messages)', () => {
  it('puts the code before the message', () => {
    expect(errorText('A00001', '参数错误')).toBe('A00001 参数错误');
  });
  it('is just the message without a code', () => {
    expect(errorText(undefined, '系统错误')).toBe('系统错误');
    expect(errorText('', '系统错误')).toBe('系统错误');
  });
  it("falls back to 'unknown error' for an empty message", () => {
    expect(errorText('A00005', '')).toBe('A00005 unknown error');
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
    ['A00005', 503, { code: 'A00005', msg: '数据库暂时不可用，请稍后重试' }, '数据库暂时不可用，请稍后重试'],
  ])('%s (HTTP %i) is an error with code and message', (code, status, body, message) => {
    expect(classifyResponse(status, body)).toEqual({ kind: 'error', code, message });
  });

  it('a non-JSON error response is an error named by its HTTP status', () => {
    expect(classifyResponse(502, undefined)).toEqual({ kind: 'error', code: 'HTTP 502', message: 'unknown error' });
  });
});

// ------------------------------------------------------------------ the middleware, on a fake fetch

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
    messages: { networkError: '网络错误' },
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

  it('toasts the message of a 503 A00005 (the database unavailable) as of a 500', async () => {
    for (const status of [500, 503]) {
      const { api, notifyError, signals } = setup(() => json({ code: 'A00005', msg: '数据库暂时不可用，请稍后重试' }, status));
      const { error } = await api.GET('/api/notice/get');
      expect(error).toMatchObject({ code: 'A00005' });
      expect(notifyError).toHaveBeenCalledWith('A00005 数据库暂时不可用，请稍后重试');
      expect(signals).toEqual([]);
    }
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
      messages: { networkError: '网络错误' },
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

describe('api.upload (multipart over XMLHttpRequest, with progress)', () => {
  const PATH = '/api/purchased/user/excel/upload/import';
  const fileForm = () => multipartBody({ file: new File([new Uint8Array(1000)], 'rows.xlsx') });

  function setupUpload(reply: FetchLike, script?: UploadScript, token: { token: string; keep: boolean } | null = { token: 'tok', keep: true }) {
    const requests: Request[] = [];
    const notifyError = vi.fn<(message: string) => void>();
    const signals: SessionSignal[] = [];
    const fetch: FetchLike = async (request) => {
      requests.push(request.clone());
      return reply(request);
    };
    const api = createApiClient({
      baseUrl: 'http://localhost',
      fetch,
      createXhr: fakeXhr(fetch, script),
      readToken: () => token,
      notifyError,
      onSessionSignal: (signal) => signals.push(signal),
      messages: { networkError: '网络错误' },
    });
    return { api, requests, notifyError, signals };
  }

  it('posts the form with the session headers and answers like openapi-fetch', async () => {
    const { api, requests } = setupUpload(async () => json({ code: 'A00000', data: { succ: 1, skip: 0, error: 0, rows: [] } }));
    const { data, error } = await api.upload(PATH, fileForm());
    expect(error).toBeUndefined();
    expect(data?.data?.succ).toBe(1);
    expect(requests[0]!.method).toBe('POST');
    expect(requests[0]!.url).toBe(`http://localhost${PATH}`);
    expect(requests[0]!.headers.get('x-token')).toBe('tok');
    expect(requests[0]!.headers.get('x-keepflag')).toBe('1');
    expect(((await requests[0]!.formData()).get('file') as File).size).toBe(1000);
  });

  it('sends no session headers without a token', async () => {
    const { api, requests } = setupUpload(async () => json({ code: 'A00000' }), undefined, null);
    await api.upload(PATH, fileForm());
    expect(requests[0]!.headers.has('x-token')).toBe(false);
    expect(requests[0]!.headers.has('x-keepflag')).toBe(false);
  });

  it('reports the bytes sent as percent, ending at 100 once the body is out', async () => {
    const seen: UploadProgress[] = [];
    const { api } = setupUpload(
      async () => json({ code: 'A00000' }),
      (sent, total) => {
        sent(0);
        sent(total / 3);
        sent(total);
      },
    );
    await api.upload(PATH, fileForm(), { onProgress: (p) => seen.push(p) });
    expect(seen.map((p) => p.percent)).toEqual([0, 33, 100, 100]);
    expect(seen.at(-1)).toMatchObject({ loaded: 1000, total: 1000 });
  });

  it('applies SPEC §8 to the answer: error toast (unless silent), error as openapi-fetch gives it', async () => {
    const refused = setupUpload(async () => json({ code: 'A00001', msg: '文件缺少必需的列' }, 400));
    const { data, error, status } = await refused.api.upload(PATH, fileForm());
    expect(data).toBeUndefined();
    expect(status).toBe(400);
    expect(error).toEqual({ code: 'A00001', msg: '文件缺少必需的列' });
    expect(refused.notifyError).toHaveBeenCalledWith('A00001 文件缺少必需的列');

    const silent = setupUpload(async () => json({ code: 'A00001', msg: 'x' }, 400));
    await silent.api.upload(PATH, fileForm(), { silent: true });
    expect(silent.notifyError).not.toHaveBeenCalled();
  });

  it('emits token.expired and no.access like every call, silent or not', async () => {
    const expired = setupUpload(async () => json({ code: 'A00002' }, 401));
    await expired.api.upload(PATH, fileForm(), { silent: true });
    expect(expired.signals).toEqual([{ type: 'token.expired' }]);
    expect(expired.notifyError).not.toHaveBeenCalled();

    const denied = setupUpload(async () => json({ code: 'A00003' }, 403));
    await denied.api.upload(PATH, fileForm());
    expect(denied.signals).toEqual([{ type: 'no.access' }]);
  });

  it('a network failure toasts and rejects', async () => {
    const { api, notifyError } = setupUpload(() => Promise.reject(new TypeError('offline')));
    await expect(api.upload(PATH, fileForm())).rejects.toThrow(TypeError);
    expect(notifyError).toHaveBeenCalledTimes(1);
  });

  it('aborts through the signal', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { api, requests } = setupUpload(
      async () => json({ code: 'A00000' }),
      async () => held,
    );
    const controller = new AbortController();
    const pending = api.upload(PATH, fileForm(), { signal: controller.signal });
    controller.abort();
    release();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toEqual([]);
  });
});
