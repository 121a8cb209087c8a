// The calls behind /user/bank-card (SPEC §7 "Withdraw": show/cards, bind/card, unbind/card):
// - the list (listBankCards) is silent and throws its failure (LoadFailure, lib/list-route.ts): the
//   page says it in place of the table;
// - bind and unbind are silent and return an Outcome: the page words its own toast (SPEC §8
//   '保存成功' / '删除成功', or the server's msg; '保存失败' / '删除失败' when it gave none). A refusal
//   comes as an error code with the server's msg (the rules of machines/bank-card.ts, a card in use)
//   or as A00000 whose data.status is not 'succ'; both count as failure.
import type { ApiClient } from '../../../api/client';
import { outcomeOf, saysSucc, type ApiOutcome } from '../../../api/outcome';
import type { components } from '../../../api/schema';
import { loadedOrThrow } from '../../lib/list-route';

type Schemas = components['schemas'];
export type BankCard = Schemas['BankCard'];
export type BindCardRequest = Schemas['BindCardRequest'];
type OpResult = Schemas['OpResult'];

/** What a change came to; `msg` is the server's words ('' when it gave none). */
export type Outcome = ApiOutcome<OpResult>;

/** GET /api/withdraw/user/show/cards: the member's live cards, masked, oldest first; a failure is thrown. */
export async function loadBankCards(api: ApiClient): Promise<BankCard[]> {
  const outcome = await outcomeOf(api.GET('/api/withdraw/user/show/cards', { silent: true }), { noAnswer: 'fail' });
  return loadedOrThrow(outcome)?.userCardList ?? [];
}

/** POST /api/withdraw/user/bind/card. */
export function bindBankCard(api: ApiClient, body: BindCardRequest): Promise<Outcome> {
  return outcomeOf(api.POST('/api/withdraw/user/bind/card', { body, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}

/** POST /api/withdraw/user/unbind/card {cardId}. */
export function unbindBankCard(api: ApiClient, cardId: number): Promise<Outcome> {
  return outcomeOf(api.POST('/api/withdraw/user/unbind/card', { body: { cardId }, silent: true }), { succeeded: saysSucc, noAnswer: 'fail' });
}
