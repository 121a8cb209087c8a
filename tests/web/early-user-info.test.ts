// The session's first user call takes index.html's early answer (decision 174): once, for the same
// token, and only when it is a user; anything else leaves the call to the API client.
import { describe, expect, it } from 'vitest';
import { takeEarlyUserInfo } from '../../src/web/session/early-user-info';

const user = { id: 1, nickName: 'a', mailAddr: 'a@x.test', roleType: 'admin' };
const early = (token: string, answer: Promise<unknown>) => ({ __earlyUserInfo: { token, answer } });

describe('the early user call', () => {
  it('gives its user once, for the same token', async () => {
    const from = early('t1', Promise.resolve({ code: 'A00000', data: user }));
    expect(await takeEarlyUserInfo('t1', from)).toEqual(user);
    expect(await takeEarlyUserInfo('t1', from)).toBeNull();
  });

  it('nothing for another token, an answer that is no user, or a failed fetch', async () => {
    expect(await takeEarlyUserInfo('t2', early('t1', Promise.resolve({ code: 'A00000', data: user })))).toBeNull();
    expect(await takeEarlyUserInfo('t1', early('t1', Promise.resolve({ code: 'A00002', msg: 'Token已过期，请重新登录' })))).toBeNull();
    expect(await takeEarlyUserInfo('t1', early('t1', Promise.reject(new Error('offline'))))).toBeNull();
    expect(await takeEarlyUserInfo('t1', {})).toBeNull();
  });
});
