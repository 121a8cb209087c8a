// /user/bank-card (SPEC §2, §3 "Bank card", §5, §8): the member's payout accounts. An add button
// opens the dialog (bank-card-dialog.tsx); the table shows id, payment type, holder name, account
// number, routing number, bank name, card type and address as the server answers them (holder name,
// number and routing number masked), 20 a page; each row can be deleted after a confirmation.
// Toasts (SPEC §8): '保存成功' / '删除成功', or the server's msg; a refusal shows the server's msg, or
// '保存失败' / '删除失败' when it gave none. After a save or a delete, failed or not, the list reloads
// (SPEC §8 "After a bank card save or delete failure the list reloads"). On a phone each card is a
// card: type, holder, number, bank, address and its delete button.
import { useRouter } from '@tanstack/react-router';
import { useMemo, useState, type JSX } from 'react';
import { CARD_LABELS, cardTypeLabel, paymentTypeLabel } from '../../../../machines/bank-card';
import { Button } from '../../components/ui/button';
import { confirmDialog } from '../../components/ui/confirm';
import { columnHelper, type TableFailure } from '../../components/ui/data-table';
import { PageHeader } from '../../components/ui/page';
import { PagedTable } from '../../components/ui/paged-table';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { BankCardDialog } from './bank-card-dialog';
import { BANK_CARD_PAGE_SIZE, type BankCardSearch } from './bank-card-search';
import { bindBankCard, unbindBankCard, type BankCard, type BindCardRequest } from './bank-cards-api';

const t = zh.bankCards;

export interface BankCardPageProps {
  search: BankCardSearch;
  cards: BankCard[];
  loading?: boolean;
  /** The cards could not be loaded: said in the table's place. */
  failure?: TableFailure | null;
  onSearch: (next: BankCardSearch) => void;
}

const col = columnHelper<BankCard>();
const mono = ({ getValue }: { getValue: () => string }) => <span className="font-mono text-xs whitespace-nowrap">{getValue()}</span>;

/** How a card reads in the delete question: type and masked number (or holder). */
function cardSummary(card: BankCard): string {
  return [`#${card.id}`, paymentTypeLabel(card.paymentType), card.cardNo || card.accountName].filter(Boolean).join(' ');
}

/** The card's fields, and 删除 (the one being deleted spins, the others wait). */
function cardColumns(deleting: number | null, onRemove: (card: BankCard) => void) {
  return col.columns([
    col.accessor('id', { header: t.colId, meta: { className: 'tabular-nums' } }),
    col.accessor('paymentType', {
      header: CARD_LABELS.paymentType,
      cell: ({ getValue }) => paymentTypeLabel(getValue()),
      meta: { className: 'whitespace-nowrap', card: 'title' },
    }),
    col.accessor('accountName', { header: CARD_LABELS.accountName, cell: mono }),
    col.accessor('cardNo', { header: CARD_LABELS.cardNo, cell: mono }),
    col.accessor('routingNumber', { header: CARD_LABELS.routingNumber, cell: mono }),
    col.accessor('bankInfo', { header: CARD_LABELS.bankInfo }),
    col.accessor('cardType', { header: CARD_LABELS.cardType, cell: ({ getValue }) => cardTypeLabel(getValue()), meta: { className: 'whitespace-nowrap' } }),
    col.accessor('address', { header: CARD_LABELS.address, meta: { className: 'min-w-48' } }),
    col.display({
      id: 'actions',
      header: t.colActions,
      meta: { card: 'actions' },
      cell: ({ row }) => (
        <Button
          variant="link"
          className="text-red-600"
          aria-label={t.deleteNamed(row.original.id)}
          loading={deleting === row.original.id}
          disabled={deleting !== null}
          onClick={() => onRemove(row.original)}
        >
          {t.delete}
        </Button>
      ),
    }),
  ]);
}

export function BankCardPage({ search, cards, loading = false, failure = null, onSearch }: BankCardPageProps): JSX.Element {
  const router = useRouter();
  const { api } = useAppContext();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<number | null>(null);

  const columns = useMemo(() => {
    const reload = () => void router.invalidate();
    async function remove(card: BankCard) {
      const sure = await confirmDialog(t.deleteConfirm(cardSummary(card)), { title: t.deleteTitle, okText: t.delete, danger: true });
      if (!sure) return;
      setDeleting(card.id);
      try {
        const outcome = await unbindBankCard(api, card.id);
        if (outcome.ok) toast.success(outcome.msg || t.deleted);
        else toast.error(outcome.msg || t.deleteFailed);
      } finally {
        setDeleting(null);
        reload();
      }
    }
    return cardColumns(deleting, (card) => void remove(card));
  }, [api, deleting, router]);

  async function save(body: BindCardRequest): Promise<boolean> {
    const outcome = await bindBankCard(api, body);
    if (outcome.ok) toast.success(outcome.msg || t.saved);
    else toast.error(outcome.msg || t.saveFailed);
    void router.invalidate();
    return outcome.ok;
  }

  // The server answers every card; the page is cut here.
  const totalPages = Math.ceil(cards.length / BANK_CARD_PAGE_SIZE);
  const page = Math.min(search.page, Math.max(0, totalPages - 1));
  const result = useMemo(
    () => ({ content: cards.slice(page * BANK_CARD_PAGE_SIZE, (page + 1) * BANK_CARD_PAGE_SIZE), totalPages, totalElements: cards.length }),
    [cards, page, totalPages],
  );

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={zh.titles.userBankCard} actions={<Button onClick={() => setAdding(true)}>{t.add}</Button>} />
      <PagedTable
        columns={columns}
        search={{ page, size: BANK_CARD_PAGE_SIZE }}
        result={result}
        onSearch={(next) => onSearch({ page: next.page })}
        loading={loading}
        failure={failure}
        cards
        emptyText={t.empty}
        caption={t.caption}
      />
      {adding && <BankCardDialog onClose={() => setAdding(false)} onSave={save} />}
    </div>
  );
}
