// The calls behind /user/bank-card (SPEC §7 "Withdraw": show/cards, bind/card, unbind/card):
// - the list (listBankCards) answers no cards on failure (the client has shown why);
// - bind and unbind are silent and return an Outcome: the page words its own toast (SPEC §8
//   '保存成功' / '删除成功', or the server's msg; '保存失败' / '删除失败' when it gave none). A refusal
//   comes as an error code with the server's msg (the rules of machines/bank-card.ts, a card in use)
//   or as A00000 whose data.status is not 'succ'; both count as failure.
import type { ApiClient } from '../../../api/client';
import type { components } from '../../../api/schema';

type Schemas = components['schemas'];
export type BankCard = Schemas['BankCard'];
export type BindCardRequest = Schemas['BindCardRequest'];

/** What a change came to; `msg` is the server's words ('' when it gave none). */
export type Outcome = { ok: boolean; msg: string };

interface Answer {
  data?: { msg?: string; data?: { status?: string; msg?: string } };
  error?: unknown;
}

function messageOf(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'msg' in body && typeof body.msg === 'string') return body.msg;
  return '';
}

async function settle(call: () => Promise<Answer>): Promise<Outcome> {
  let answer: Answer;
  try {
    answer = await call();
  } catch {
    return { ok: false, msg: '' };
  }
  if (answer.error !== undefined || !answer.data) return { ok: false, msg: messageOf(answer.error) };
  const result = answer.data.data;
  return { ok: result?.status === 'succ', msg: result?.msg || answer.data.msg || '' };
}

/** GET /api/withdraw/user/show/cards: the member's live cards, masked, oldest first. */
export async function loadBankCards(api: ApiClient): Promise<BankCard[]> {
  const { data } = await api.GET('/api/withdraw/user/show/cards');
  return data?.data?.userCardList ?? [];
}

/** POST /api/withdraw/user/bind/card. */
export function bindBankCard(api: ApiClient, body: BindCardRequest): Promise<Outcome> {
  return settle(() => api.POST('/api/withdraw/user/bind/card', { body, silent: true }));
}

/** POST /api/withdraw/user/unbind/card {cardId}. */
export function unbindBankCard(api: ApiClient, cardId: number): Promise<Outcome> {
  return settle(() => api.POST('/api/withdraw/user/unbind/card', { body: { cardId }, silent: true }));
}
