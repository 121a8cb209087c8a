// /admin/scan2 (SPEC §2, §4 Scan2 row client status, §5 Scan2): pick a product (or scan its UPC),
// then scan tracking ids with the USB scanner (hidden input) or the camera; the command barcodes
// beside the rows submit and take back, so a batch needs no mouse (decision 085).
// machines/scan2.machine.ts decides everything: which scans become rows, when a row is sent, what
// its status is, which rows offer submit and delete (`snapshot.can`), when failed rows are tried
// again, which product a code chooses. The page shows it: a banner and a sound for each scan, the
// choice when several products share a code (numbered: the clerk types the number and Enter), the
// counts, and the rows newest first, coloured by status, each tracking id with its carrier
// (decision 099).
import { useSelector } from '@xstate/react';
import { useRef, type JSX } from 'react';
import { SCAN2_STATUS, type Scan2Choice, type Scan2Held, type Scan2Row, type Scan2Snapshot, type Scan2Status } from '../../../../machines/scan2.machine';
import { ItemPicker, itemPickerLabel } from '../../components/item-picker';
import { CarrierLabel } from '../../components/tracking-ids';
import { Button } from '../../components/ui/button';
import { ScrollRegion } from '../../components/ui/scroll-region';
import { StatusBadge, type BadgeTone } from '../../components/ui/status-badge';
import { usePhoneWidth } from '../../components/ui/use-media-query';
import { zh } from '../../i18n/zh';
import { CommandBarcodes } from './command-barcodes';
import { ScanStation, type StationLink } from './scan-station';
import { countsOf, scan2BannerOf, useScan2Actor, useScan2Rows, type Scan2Actor } from './use-scan2';

const t = zh.scan.scan2;
const c = zh.scan.common;
const LINKS: readonly StationLink[] = [
  { to: '/admin/scan', label: zh.titles.adminScan },
  { to: '/admin/tracking-list', label: c.trackingList },
];

const STATUS_TONE: Record<Scan2Status, BadgeTone> = {
  0: 'warning',
  1: 'info',
  2: 'success',
  3: 'danger',
  4: 'success',
  5: 'warning',
  9: 'neutral',
};

const ROW_CLASS: Record<Scan2Status, string> = {
  0: 'bg-amber-50',
  1: 'bg-blue-50',
  2: 'bg-white',
  3: 'bg-red-100',
  4: 'bg-green-100',
  5: 'bg-orange-100',
  9: 'bg-slate-50 text-slate-500 line-through',
};

/** Headless UI gives the combobox input focus back a frame or two after a pick (later on a busy machine). */
const REFOCUS_AFTER_PICK_MS = 150;
const REFOCUS_TRIES = 4;

/**
 * Gives the scanner the focus back after a pick in the product search, and again while the search
 * took it back (it refocuses its input after a pick, later than usual on a busy machine): the next
 * scan must not land in the search.
 */
function refocusAfterPick(focusScanner: { current: (() => void) | null }, tries = REFOCUS_TRIES): void {
  setTimeout(() => {
    // After the first time, only while the search has the focus again.
    if (tries < REFOCUS_TRIES && document.activeElement?.getAttribute('role') !== 'combobox') return;
    focusScanner.current?.();
    if (tries > 1) refocusAfterPick(focusScanner, tries - 1);
  }, REFOCUS_AFTER_PICK_MS);
}

/** No labels kept (one array, so the selector's answer stays the same between renders). */
const NONE_KEPT: readonly Scan2Held[] = [];

const time = (at: number) => (at ? new Date(at).toLocaleTimeString('zh-CN', { hour12: false }) : '');

export function Scan2Page(): JSX.Element {
  const actor = useScan2Actor();
  const focusScanner = useRef<(() => void) | null>(null);
  const item = useSelector(actor, (s: Scan2Snapshot) => s.context.item);
  const notice = useSelector(actor, (s: Scan2Snapshot) => s.context.notice);
  const choice = useSelector(actor, (s: Scan2Snapshot) => s.context.choice);
  const kept = useSelector(actor, (s: Scan2Snapshot) => (s.context.choice ? s.context.held : NONE_KEPT));
  const looking = useSelector(actor, (s: Scan2Snapshot) => s.matches({ scanner: 'vetting' }));
  const rows = useScan2Rows(actor);
  const counts = countsOf(rows);
  const scan = (code: string) => actor.send({ type: 'scan.code', code, at: Date.now() });

  return (
    <ScanStation
      title={zh.titles.adminScan2}
      description={t.intro}
      cameraField={item ? 'tracking' : 'product'}
      links={LINKS}
      onScan={scan}
      banner={scan2BannerOf(notice, item !== null, looking)}
      focusRef={focusScanner}
      tools={
        <ItemPicker
          className="w-full max-w-md"
          label={t.item}
          placeholder={t.itemPlaceholder}
          value={item?.id ?? null}
          onChange={(picked) => {
            actor.send({ type: 'item.select', item: picked && { id: picked.id, itemName: picked.itemName, upc: picked.upc } });
            refocusAfterPick(focusScanner);
          }}
        />
      }
    >
      {choice && <ChoiceList actor={actor} choice={choice} kept={kept} />}
      {counts.unsettled > 0 && <p className="text-sm font-medium text-amber-700">{t.unsettledWarning(counts.unsettled)}</p>}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600">{t.summary(counts.pending, counts.sending, counts.failed, counts.done)}</p>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" disabled={counts.pending === 0} onClick={() => actor.send({ type: 'rows.submitPending' })}>
            {t.submitPending(counts.pending)}
          </Button>
          <Button size="sm" variant="secondary" disabled={counts.retryable === 0} onClick={() => actor.send({ type: 'retry.now' })}>
            {t.retryNow}
          </Button>
          <Button size="sm" variant="secondary" disabled={counts.unsettled === rows.length} onClick={() => actor.send({ type: 'rows.clearSettled' })}>
            {t.clearSettled}
          </Button>
        </div>
      </div>
      {/* The rows first; the command barcodes beside them on a wide screen, under them otherwise. */}
      <div className="flex flex-col gap-4 xl:flex-row xl:items-start">
        <div className="min-w-0 flex-1">
          <Scan2Table actor={actor} rows={rows} />
        </div>
        <CommandBarcodes commands={t.commands} className="xl:w-64 xl:shrink-0" />
      </div>
    </ScanStation>
  );
}

/**
 * The products of one code, numbered as the clerk types them (1-9, then Enter), or picked on the
 * screen; with the parcels' labels kept until then (they go in under the product chosen).
 */
function ChoiceList({ actor, choice, kept }: { actor: Scan2Actor; choice: Scan2Choice; kept: readonly Scan2Held[] }): JSX.Element {
  return (
    <section aria-labelledby="scan2-choice" className="rounded-lg border-2 border-amber-300 bg-amber-50 p-3">
      <h2 id="scan2-choice" className="text-sm font-semibold text-amber-900">
        {t.choiceCaption(choice.code)}
      </h2>
      <p className="mb-2 text-xs text-amber-900">{t.choiceHint}</p>
      {kept.length > 0 && (
        <p className="mb-2 text-sm font-medium text-amber-900">
          {t.choiceKept(kept.length)}
          <span className="font-mono break-all">{kept.map((scan) => scan.code.trim()).join('、')}</span>
        </p>
      )}
      <ol className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {choice.items.map((option, index) => (
          <li key={option.id}>
            <Button variant="secondary" className="w-full justify-start sm:w-auto" onClick={() => actor.send({ type: 'choice.pick', index })}>
              {t.choiceOption(index + 1, itemPickerLabel(option))}
            </Button>
          </li>
        ))}
        <li>
          <Button variant="secondary" className="w-full sm:w-auto" onClick={() => actor.send({ type: 'choice.cancel' })}>
            {c.cancel}
          </Button>
        </li>
      </ol>
    </section>
  );
}

/** A row's message; a failed row that will be tried again says so, with its attempts. */
function rowMessage(row: Scan2Row): string {
  return row.status === SCAN2_STATUS.failed && row.retryable ? `${row.message ? `${row.message}；` : ''}${t.retrying(row.attempts)}` : row.message;
}

/** The id, then its carrier and a failed check digit's warning (decision 099); they wrap under the id on a phone. */
function RowTrackingId({ row, wrap = false }: { row: Scan2Row; wrap?: boolean }): JSX.Element {
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
      <span className={`font-mono ${wrap ? 'break-all' : 'whitespace-nowrap'}`}>{row.trackingId}</span>
      <CarrierLabel trackingId={row.trackingId} />
    </span>
  );
}

/** 提交 and 删除, each only where the machine allows it for this row. */
function RowActions({ actor, row, snapshot }: { actor: Scan2Actor; row: Scan2Row; snapshot: Scan2Snapshot }): JSX.Element {
  return (
    <span className="flex gap-1">
      {snapshot.can({ type: 'row.submit', key: row.key }) && (
        <Button size="sm" onClick={() => actor.send({ type: 'row.submit', key: row.key })}>
          {c.submit}
        </Button>
      )}
      {snapshot.can({ type: 'row.delete', key: row.key }) && (
        <Button size="sm" variant="danger" onClick={() => actor.send({ type: 'row.delete', key: row.key })}>
          {c.delete}
        </Button>
      )}
    </span>
  );
}

/** The rows: a table, or on a phone's width a card a row (the eight columns do not fit 390 px). */
function Scan2Table({ actor, rows }: { actor: Scan2Actor; rows: Scan2Row[] }): JSX.Element {
  const snapshot = useSelector(actor, (s: Scan2Snapshot) => s);
  const phone = usePhoneWidth();
  if (phone) {
    if (rows.length === 0) return <p className="rounded-lg border border-slate-200 bg-white px-3 py-8 text-center text-sm text-slate-500">{t.empty}</p>;
    return (
      <ul aria-label={t.caption} className="flex flex-col gap-2">
        {rows.map((row) => (
          <li key={row.key} data-status={row.status} className={`flex flex-col gap-1 rounded-lg border border-slate-200 p-3 text-sm ${ROW_CLASS[row.status]}`}>
            <div className="flex items-start justify-between gap-2">
              <span className="flex min-w-0 items-baseline gap-2">
                <span className="text-slate-500">{row.key}</span>
                <RowTrackingId row={row} wrap />
              </span>
              <StatusBadge tone={STATUS_TONE[row.status]}>{t.status[row.status]}</StatusBadge>
            </div>
            <p>
              {row.itemName} <span className="font-mono text-xs text-slate-600">{row.upc}</span>
            </p>
            {rowMessage(row) && <p className="text-xs">{rowMessage(row)}</p>}
            <div className="flex items-center justify-between gap-2">
              <span className="text-xs text-slate-500">{time(row.scannedAt)}</span>
              <RowActions actor={actor} row={row} snapshot={snapshot} />
            </div>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ScrollRegion label={t.caption} className="rounded-lg border border-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{t.caption}</caption>
        <thead className="bg-slate-50 text-left text-slate-600">
          <tr>
            {[t.colNo, c.tracking, c.item, c.upc, c.status, c.message, t.colScannedAt, c.actions].map((h) => (
              <th key={h} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={8} className="px-3 py-8 text-center text-slate-500">
                {t.empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.key} data-status={row.status} className={ROW_CLASS[row.status]}>
                <td className="px-3 py-2 text-slate-500">{row.key}</td>
                <td className="px-3 py-2">
                  <RowTrackingId row={row} />
                </td>
                <td className="min-w-32 px-3 py-2">{row.itemName}</td>
                <td className="px-3 py-2 font-mono text-xs">{row.upc}</td>
                <td className="px-3 py-2">
                  <StatusBadge tone={STATUS_TONE[row.status]}>{t.status[row.status]}</StatusBadge>
                </td>
                <td className="px-3 py-2 text-xs">{rowMessage(row)}</td>
                <td className="px-3 py-2 text-xs whitespace-nowrap text-slate-500">{time(row.scannedAt)}</td>
                <td className="px-3 py-2 whitespace-nowrap">
                  <RowActions actor={actor} row={row} snapshot={snapshot} />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
