// outcomeOf (src/api/outcome.ts): what every feature reads of a call, on the real client over a fake
// fetch: the typed data and the server's words, the SPEC §8 error {code, msg}, a state change whose
// result does not say succ, and a call that got no answer.
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client';
import { outcomeOf, saysSucc } from '../../src/api/outcome';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function clientAnswering(reply: () => Response | Promise<Response>) {
  return createApiClient({
    baseUrl: 'http://localhost',
    fetch: async () => reply(),
    readToken: () => null,
    notifyError: () => {},
    onSessionSignal: () => {},
    messages: { networkError: '网络错误' },
  });
}

describe('outcomeOf', () => {
  it('a success is the envelope data with the server words', async () => {
    const api = clientAnswering(() => json({ code: 'A00000', msg: '成功', data: { content: 'hello' } }));
    const outcome = await outcomeOf(api.GET('/api/notice/get'));
    expect(outcome).toEqual({ ok: true, data: { content: 'hello' }, msg: '成功', status: 200 });
  });

  it('an error answer is its code, words and status', async () => {
    const api = clientAnswering(() => json({ code: 'A00004', msg: '任务不存在' }, 404));
    expect(await outcomeOf(api.GET('/api/notice/get'))).toEqual({ ok: false, code: 'A00004', msg: '任务不存在', status: 404 });
  });

  it('an answer without the envelope has no code', async () => {
    const api = clientAnswering(() => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    expect(await outcomeOf(api.GET('/api/notice/get'))).toEqual({ ok: false, code: null, msg: '', status: 502 });
  });

  it("a state change whose result does not say succ, or that has none, failed with the result's words", async () => {
    const refused = clientAnswering(() => json({ code: 'A00000', msg: '操作失败', data: { status: 'failed', msg: '任务已锁定' } }));
    expect(await outcomeOf(refused.POST('/api/task/accept/{id}', { params: { path: { id: 1 } } }), { succeeded: saysSucc })).toEqual({
      ok: false,
      code: 'A00000',
      msg: '任务已锁定',
      status: 200,
    });
    const empty = clientAnswering(() => json({ code: 'A00000', msg: '成功' }));
    const outcome = await outcomeOf(empty.POST('/api/task/accept/{id}', { params: { path: { id: 1 } } }), { succeeded: saysSucc });
    expect(outcome.ok).toBe(false);
    const done = clientAnswering(() => json({ code: 'A00000', data: { status: 'succ', msg: '已通过' } }));
    expect(await outcomeOf(done.POST('/api/task/accept/{id}', { params: { path: { id: 1 } } }), { succeeded: saysSucc })).toEqual({
      ok: true,
      data: { status: 'succ', msg: '已通过' },
      msg: '已通过',
      status: 200,
    });
  });

  it("no answer rejects as the client does, or is a failure with noAnswer: 'fail'", async () => {
    const api = clientAnswering(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(outcomeOf(api.GET('/api/notice/get'))).rejects.toThrow('Failed to fetch');
    expect(await outcomeOf(api.GET('/api/notice/get'), { noAnswer: 'fail' })).toEqual({ ok: false, code: null, msg: '', status: 0 });
  });
});
