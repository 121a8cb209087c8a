// The search params of /user/bank-card: the page (0-based) of the member's cards. The server answers
// every card at once (show/cards), so the page is cut here, 20 a page (SPEC §2).
import * as v from 'valibot';
import { DEFAULT_PAGE_SIZE } from '../../components/ui/pager';
import { pageParam } from '../../lib/list-search';

export const BANK_CARD_PAGE_SIZE = DEFAULT_PAGE_SIZE;

export const bankCardSearchSchema = v.object({ page: pageParam });
export type BankCardSearch = v.InferOutput<typeof bankCardSearchSchema>;
export const BANK_CARD_SEARCH_DEFAULTS = { page: 0 } as const;
