// A fake of the bank card calls (show/cards, bind/card, unbind/card) for app-harness's renderApp:
// the contract's envelopes on an in-memory list, checking a bind with the rules the server uses
// (machines/bank-card.ts checkCard) and masking as the server does (last four characters). Tests
// replace single answers through `answer`. The withdraw fake builds on it (the member's cards).
import type { components } from '../../../src/api/schema';
import { checkCard } from '../../../machines/bank-card';
import { createFakeServer, notFound, ok, refuse, type Call, type FakeServer, type Routes } from '../support/fake-api';

export { refuse, type Call };

export type BankCard = components['schemas']['BankCard'];

export const NOW = Date.UTC(2025, 2, 10, 8, 0);

export const mask = (text: string) => (text ? `****${text.slice(-4)}` : '');

export function aCard(over: Partial<BankCard> = {}): BankCard {
  return {
    id: 31,
    paymentType: 'Wire',
    accountName: '****blic',
    cardNo: '****1111',
    routingNumber: '****0021',
    bankInfo: 'Chase',
    cardType: '',
    address: '1 Main St',
    createdAt: NOW,
    ...over,
  };
}

type AnswerKey = 'bind' | 'unbind' | 'list';

export interface BankCardsFake {
  handlers: Routes;
  cards: BankCard[];
  calls: Call[];
  answer: FakeServer<AnswerKey>['answer'];
  server: FakeServer<AnswerKey>;
}

export function createBankCardsFake(seed: { cards?: BankCard[]; server?: FakeServer<string> } = {}): BankCardsFake {
  const server = (seed.server ?? createFakeServer<AnswerKey>()) as FakeServer<AnswerKey>;
  const fake: BankCardsFake = { handlers: server.handlers, cards: seed.cards ?? [aCard()], calls: server.calls, answer: server.answer, server };
  let nextId = 100;

  server.on('GET', '/api/withdraw/user/show/cards', () => ok({ userCardList: fake.cards }), 'list');

  server.on(
    'POST',
    '/api/withdraw/user/bind/card',
    ({ body }) => {
      const checked = checkCard(body as Parameters<typeof checkCard>[0]);
      if (!checked.ok) return refuse(checked.msg);
      const c = checked.card;
      const card: BankCard = {
        id: nextId++,
        paymentType: c.paymentType,
        accountName: mask(c.accountName),
        cardNo: mask(c.cardNo),
        routingNumber: mask(c.routingNumber),
        bankInfo: c.bankInfo,
        cardType: c.cardType,
        address: c.address,
        createdAt: NOW,
      };
      fake.cards.push(card);
      return ok({ status: 'succ', msg: '保存成功', card }, '保存成功');
    },
    'bind',
  );

  server.on(
    'POST',
    '/api/withdraw/user/unbind/card',
    ({ body }) => {
      const { cardId } = body as { cardId: number };
      const index = fake.cards.findIndex((c) => c.id === cardId);
      if (index < 0) return notFound('银行卡不存在');
      fake.cards.splice(index, 1);
      return ok({ status: 'succ', msg: '删除成功' }, '删除成功');
    },
    'unbind',
  );

  return fake;
}
