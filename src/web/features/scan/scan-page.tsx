// /admin/scan (SPEC §2, §5 Scan): one parcel's tracking id, then its products. Two tabs, tracking and
// upc; the USB scanner (hidden input) or the camera feeds both, and manual fields take typed codes.
// machines/scan.machine.ts owns the flow and every rule (first scan = tracking id, upc duplicates,
// counts, the product of each row, what submit needs, which records may be edited); the page shows
// its context: the parcel's tracking id with its carrier (decision 099), the records already added
// (each with edit, i.e. modify; an unmatch one says why), the new rows (upc, count, a product select
// of the upc's products, delete) and a link to /admin/item-list to add a product.
// The command barcodes (提交, 下一个包裹, 取消; under the parcel's rows, which come first) and +1 / -1
// on each row let a clerk receive parcel after parcel with the scanner alone; after a submit the next
// scan is the next parcel. A parcel with a record matching nobody sounds apart and turns the banner
// amber with the reason (the clerk sets it aside without reading the rows).
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useId, useState, type FormEvent, type JSX } from 'react';
import * as v from 'valibot';
import { waitFor } from 'xstate';
import { MAX_SCAN_COUNT, isSaving, scanMessages, type ScanRecord, type ScanRow, type ScanSnapshot, type ScanTab } from '../../../../machines/scan.machine';
import { mayEdit, unmatchReasonMessages } from '../../../../machines/scan-record.machine';
import { failsCheckDigit, productCodeMessages } from '../../../../machines/product-code';
import { nearMissMessages } from '../../../../machines/tracking-id';
import { ItemPicker, ItemPickerField } from '../../components/item-picker';
import { CarrierLabel } from '../../components/tracking-ids';
import { ScanStatusBadge } from '../../components/task-status-badges';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { Form, TextField, useValibotForm } from '../../components/ui/form';
import { textLinkClass } from '../../components/ui/link-classes';
import { ScrollRegion } from '../../components/ui/scroll-region';
import { zh } from '../../i18n/zh';
import { CommandBarcodes } from './command-barcodes';
import { ScanStation, type StationLink } from './scan-station';
import { bannerOf, useScanActor, type ScanActor } from './use-scan';

const s = zh.scan.scan;
const c = zh.scan.common;
const TABS: readonly ScanTab[] = ['tracking', 'upc'];
const LINKS: readonly StationLink[] = [
  { to: '/admin/scan2', label: zh.titles.adminScan2 },
  { to: '/admin/item-list', label: c.itemList },
  { to: '/admin/tracking-list', label: c.trackingList },
];

const fieldLook =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 ' +
  'focus:border-blue-500 focus:outline-2 focus:outline-blue-500/30';
const fieldClass = `block w-full ${fieldLook}`;
/** The count box keeps its width between -1 and +1, on a phone too. */
const countClass = `w-20 shrink-0 ${fieldLook}`;
/** A table of this page on a phone (under sm, 390 px): no header, each row a small grid of its own (below). */
const PHONE_TABLE = {
  table: 'max-sm:block',
  head: 'max-sm:hidden',
  body: 'max-sm:block',
};

/**
 * The new rows' table on a phone: each row a small grid — upc and delete on the
 * first line, the count (-1, box, +1) on the second, the product on the third — so the count box and
 * the delete button are on screen without scrolling sideways; from sm up, a table as usual.
 */
const PHONE_ROWS = {
  row: 'max-sm:grid max-sm:grid-cols-[1fr_auto] max-sm:items-center',
  upc: 'max-sm:col-start-1 max-sm:row-start-1 max-sm:break-all',
  remove: 'max-sm:col-start-2 max-sm:row-start-1',
  count: 'max-sm:col-span-2 max-sm:row-start-2 max-sm:py-1',
  item: 'max-sm:col-span-2 max-sm:row-start-3 max-sm:min-w-0',
};

/**
 * The parcel's records on a phone, the same way: its UPC and status on top, the product and count,
 * then who it matched (or why not) and 编辑; the id and empty cells are left off. Seven columns
 * do not fit 390 px, and the status and the match are what the clerk looks for.
 */
const PHONE_RECORDS = {
  row: 'max-sm:grid max-sm:grid-cols-[1fr_auto] max-sm:items-center max-sm:py-1',
  id: 'max-sm:hidden',
  upc: 'max-sm:col-start-1 max-sm:row-start-1 max-sm:break-all max-sm:pb-0',
  status: 'max-sm:col-start-2 max-sm:row-start-1 max-sm:pb-0',
  item: 'max-sm:col-start-1 max-sm:row-start-2 max-sm:py-0',
  count: "max-sm:col-start-2 max-sm:row-start-2 max-sm:py-0 max-sm:text-right max-sm:before:content-['×_']",
  match: 'max-sm:col-span-2 max-sm:row-start-3 max-sm:empty:hidden max-sm:pt-1',
  actions: 'max-sm:col-span-2 max-sm:row-start-4 max-sm:empty:hidden',
};

export function ScanPage(): JSX.Element {
  const actor = useScanActor();
  const tab = useSelector(actor, (snap: ScanSnapshot) => snap.context.tab);
  const trackingId = useSelector(actor, (snap: ScanSnapshot) => snap.context.trackingId);
  const notice = useSelector(actor, (snap: ScanSnapshot) => snap.context.notice);
  const loading = useSelector(actor, (snap: ScanSnapshot) => snap.matches('loading') || snap.matches('vetting'));
  const scan = (code: string) => actor.send({ type: 'scan.code', code });

  return (
    <ScanStation
      title={zh.titles.adminScan}
      description={s.intro}
      cameraField={tab === 'tracking' ? 'tracking' : 'product'}
      links={LINKS}
      onScan={scan}
      banner={loading ? { tone: 'info', text: zh.app.loading } : bannerOf(notice, trackingId, tab)}
    >
      <TabGroup selectedIndex={TABS.indexOf(tab)} onChange={(index) => actor.send({ type: 'tab.select', tab: TABS[index] ?? 'tracking' })}>
        <TabList className="flex gap-1 border-b border-slate-200">
          {TABS.map((key) => (
            <Tab
              key={key}
              disabled={key === 'upc' && trackingId === null}
              className="-mb-px rounded-t-md border border-transparent px-4 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-500 disabled:cursor-not-allowed disabled:text-slate-300 data-selected:border-slate-200 data-selected:border-b-white data-selected:bg-white data-selected:text-blue-700"
            >
              {key === 'tracking' ? s.tabTracking : s.tabUpc}
            </Tab>
          ))}
        </TabList>
        <TabPanels className="pt-4">
          <TabPanel>
            <TrackingTab actor={actor} onCode={scan} />
          </TabPanel>
          <TabPanel>
            <ManualCode label={s.upcManual} button={s.add} onCode={scan} />
          </TabPanel>
        </TabPanels>
      </TabGroup>
      {trackingId !== null && !loading && <ParcelTables actor={actor} />}
      {/* Under the parcel: the rows being scanned come first, above the fold at 1400x900. */}
      <CommandBarcodes />
    </ScanStation>
  );
}

function TrackingTab({ actor, onCode }: { actor: ScanActor; onCode: (code: string) => void }): JSX.Element {
  const trackingId = useSelector(actor, (snap: ScanSnapshot) => snap.context.trackingId);
  const canReset = useSelector(actor, (snap: ScanSnapshot) => snap.can({ type: 'tracking.reset' }));
  return (
    <div className="flex flex-col gap-3">
      {trackingId === null && <p className="text-sm text-slate-700">{s.noTracking}</p>}
      <ManualCode label={s.trackingManual} button={c.confirm} onCode={onCode} />
      {trackingId !== null && (
        <div>
          <Button variant="secondary" size="sm" disabled={!canReset} onClick={() => actor.send({ type: 'tracking.reset' })}>
            {s.nextParcel}
          </Button>
        </div>
      )}
    </div>
  );
}

/** A typed code, for a label the scanner cannot read. */
function ManualCode({ label, button, onCode }: { label: string; button: string; onCode: (code: string) => void }): JSX.Element {
  const id = useId();
  const [value, setValue] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    if (value.trim() === '') return;
    onCode(value);
    setValue('');
  }
  return (
    <form onSubmit={submit} className="flex max-w-md items-end gap-2">
      <div className="flex-1">
        <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
          {label}
        </label>
        <input id={id} value={value} onChange={(e) => setValue(e.target.value)} autoComplete="off" className={fieldClass} />
      </div>
      <Button type="submit" variant="secondary">
        {button}
      </Button>
    </form>
  );
}

/** The parcel being received, above its tables whichever tab is open: its tracking id, carrier (decision 099) and whether it had rows. */
function CurrentParcel({ actor }: { actor: ScanActor }): JSX.Element | null {
  const trackingId = useSelector(actor, (snap: ScanSnapshot) => snap.context.trackingId);
  const isExist = useSelector(actor, (snap: ScanSnapshot) => snap.context.isExist);
  if (trackingId === null) return null;
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
      <span className="break-all">{s.current(trackingId)}</span>
      <CarrierLabel trackingId={trackingId} />
      <span>（{isExist ? s.exists : s.notExists}）</span>
    </p>
  );
}

function ParcelTables({ actor }: { actor: ScanActor }): JSX.Element {
  const records = useSelector(actor, (snap: ScanSnapshot) => snap.context.records);
  const rows = useSelector(actor, (snap: ScanSnapshot) => snap.context.rows);
  const saving = useSelector(actor, isSaving);
  const submitting = useSelector(actor, (snap: ScanSnapshot) => snap.matches({ parcel: { save: 'submitting' } }));
  const [editing, setEditing] = useState<ScanRecord | null>(null);

  return (
    <div className="flex flex-col gap-4">
      <CurrentParcel actor={actor} />
      <section>
        <h2 className="mb-2 text-sm font-semibold text-slate-800">{s.recordsCaption}</h2>
        <ScrollRegion label={s.recordsCaption} className="rounded-lg border border-slate-200">
          <table className={`min-w-full divide-y divide-slate-200 text-sm ${PHONE_TABLE.table}`}>
            <caption className="sr-only">{s.recordsCaption}</caption>
            <thead className={`bg-slate-50 text-left text-slate-600 ${PHONE_TABLE.head}`}>
              <tr>
                {['ID', c.upc, c.item, c.count, c.status, s.colMatchedUser, c.actions].map((h) => (
                  <th key={h} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className={`divide-y divide-slate-100 ${PHONE_TABLE.body}`}>
              {records.length === 0 ? (
                <tr>
                  <td colSpan={7} className="px-3 py-6 text-center text-slate-500">
                    {s.noRecords}
                  </td>
                </tr>
              ) : (
                records.map((record) => <RecordRow key={record.id} record={record} saving={saving} onEdit={setEditing} />)
              )}
            </tbody>
          </table>
        </ScrollRegion>
      </section>

      <section>
        <h2 className="mb-2 text-sm font-semibold text-slate-800">{s.rowsCaption}</h2>
        <ScrollRegion label={s.rowsCaption} className="rounded-lg border border-slate-200">
          <table className={`min-w-full divide-y divide-slate-200 text-sm ${PHONE_TABLE.table}`}>
            <caption className="sr-only">{s.rowsCaption}</caption>
            <thead className={`bg-slate-50 text-left text-slate-600 ${PHONE_TABLE.head}`}>
              <tr>
                {[c.upc, c.count, c.item, c.actions].map((h) => (
                  <th key={h} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className={`divide-y divide-slate-100 ${PHONE_TABLE.body}`}>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={4} className="px-3 py-6 text-center text-slate-500">
                    {s.noRows}
                  </td>
                </tr>
              ) : (
                rows.map((row) => <NewRow key={row.key} actor={actor} row={row} />)
              )}
            </tbody>
          </table>
        </ScrollRegion>
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
          <Link to="/admin/item-list" className={textLinkClass}>
            {s.addItemHint}
          </Link>
          <Button loading={submitting} disabled={rows.length === 0 || saving} onClick={() => actor.send({ type: 'rows.submit' })}>
            {s.submitRows(rows.length)}
          </Button>
        </div>
      </section>
      <EditRecordDialog actor={actor} record={editing} onClose={() => setEditing(null)} />
    </div>
  );
}

/** A record the parcel already has: its item, status, match (or why not, and the near misses) and 编辑 where the machine allows it. */
function RecordRow({ record, saving, onEdit }: { record: ScanRecord; saving: boolean; onEdit: (record: ScanRecord) => void }): JSX.Element {
  return (
    <tr className={PHONE_RECORDS.row}>
      <td className={`px-3 py-2 text-slate-500 ${PHONE_RECORDS.id}`}>{record.id}</td>
      <td className={`px-3 py-2 font-mono ${PHONE_RECORDS.upc}`}>{record.upc}</td>
      <td className={`px-3 py-2 ${PHONE_RECORDS.item}`}>{record.itemName}</td>
      <td className={`px-3 py-2 ${PHONE_RECORDS.count}`}>{record.count}</td>
      <td className={`px-3 py-2 ${PHONE_RECORDS.status}`}>
        <ScanStatusBadge status={record.status} />
      </td>
      <td className={`px-3 py-2 ${PHONE_RECORDS.match}`}>
        {record.matchedUser ?? (record.unmatchReason ? <span className="text-amber-700">{unmatchReasonMessages[record.unmatchReason]}</span> : '')}
        {record.nearMisses?.length ? <p className="text-amber-800">{nearMissMessages.clerk(record.nearMisses)}</p> : null}
      </td>
      <td className={`px-3 py-2 ${PHONE_RECORDS.actions}`}>
        {mayEdit(record) && (
          <Button size="sm" variant="secondary" disabled={saving} onClick={() => onEdit(record)}>
            {c.edit}
          </Button>
        )}
      </td>
    </tr>
  );
}

function NewRow({ actor, row }: { actor: ScanActor; row: ScanRow }): JSX.Element {
  const canDecrease = useSelector(actor, (snap: ScanSnapshot) => snap.can({ type: 'row.step', key: row.key, by: -1 }));
  const canIncrease = useSelector(actor, (snap: ScanSnapshot) => snap.can({ type: 'row.step', key: row.key, by: 1 }));
  const missing = row.itemId === null;
  const tone = row.candidates !== null && row.candidates.length === 0 && missing ? 'bg-amber-50' : missing ? '' : 'bg-green-50';
  return (
    <tr data-upc={row.upc} className={`${tone} ${PHONE_ROWS.row}`}>
      <td className={`px-3 py-2 font-mono ${PHONE_ROWS.upc}`}>
        {row.upc}
        {row.announced && <span className="ml-2 rounded bg-blue-100 px-1.5 py-0.5 font-sans text-xs text-blue-800">{s.announcedMark}</span>}
        {/* Taken all the same, and flagged on its row (decision 074). */}
        {failsCheckDigit(row.upc) && (
          <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 font-sans text-xs text-amber-900">{productCodeMessages.checkDigit}</span>
        )}
      </td>
      <td className={`px-3 py-2 ${PHONE_ROWS.count}`}>
        <div className="flex items-center gap-1">
          <Button
            size="sm"
            variant="secondary"
            aria-label={s.decrease(row.upc)}
            disabled={!canDecrease}
            onClick={() => actor.send({ type: 'row.step', key: row.key, by: -1 })}
          >
            -1
          </Button>
          <input
            type="number"
            min={1}
            max={MAX_SCAN_COUNT}
            step={1}
            aria-label={`${c.count} ${row.upc}`}
            value={Number.isFinite(row.count) ? row.count : ''}
            onChange={(e) => actor.send({ type: 'row.setCount', key: row.key, count: e.target.value === '' ? Number.NaN : Number(e.target.value) })}
            className={countClass}
          />
          <Button
            size="sm"
            variant="secondary"
            aria-label={s.increase(row.upc)}
            disabled={!canIncrease}
            onClick={() => actor.send({ type: 'row.step', key: row.key, by: 1 })}
          >
            +1
          </Button>
        </div>
      </td>
      <td className={`min-w-48 px-3 py-2 ${PHONE_ROWS.item}`}>
        <RowProduct actor={actor} row={row} />
      </td>
      <td className={`px-3 py-2 ${PHONE_ROWS.remove}`}>
        <Button size="sm" variant="danger" onClick={() => actor.send({ type: 'row.remove', key: row.key })}>
          {c.delete}
        </Button>
      </td>
    </tr>
  );
}

/** The products of the row's upc in a select; none found: a search over every product. */
function RowProduct({ actor, row }: { actor: ScanActor; row: ScanRow }): JSX.Element {
  if (row.candidates === null) return <span className="text-xs text-slate-500">{s.looking}</span>;
  if (row.candidates.length === 0) {
    return (
      <div className="flex flex-col gap-1">
        <span className="text-xs text-amber-700">{s.noCandidate}</span>
        <ItemPicker
          label={null}
          aria-label={`${s.searchItem} ${row.upc}`}
          value={row.itemId}
          onChange={(item) => actor.send({ type: 'row.setItem', key: row.key, item: item && { id: item.id, itemName: item.itemName, upc: item.upc } })}
        />
      </div>
    );
  }
  return (
    <select
      aria-label={`${c.item} ${row.upc}`}
      value={row.itemId ?? ''}
      onChange={(e) => {
        const item = row.candidates?.find((candidate) => candidate.id === Number(e.target.value)) ?? null;
        actor.send({ type: 'row.setItem', key: row.key, item });
      }}
      className={fieldClass}
    >
      <option value="">{s.chooseItem}</option>
      {row.candidates.map((item) => (
        <option key={item.id} value={item.id}>
          {item.itemName}
        </option>
      ))}
    </select>
  );
}

const editSchema = v.object({
  count: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+$/, scanMessages.countInvalid),
    v.transform(Number),
    v.number(),
    v.minValue(1, scanMessages.countInvalid),
    v.maxValue(MAX_SCAN_COUNT, scanMessages.countInvalid),
  ),
  itemId: v.nullable(v.number()),
});

function EditRecordDialog({ actor, record, onClose }: { actor: ScanActor; record: ScanRecord | null; onClose: () => void }): JSX.Element {
  const formId = useId();
  const saving = useSelector(actor, isSaving);
  return (
    <Modal
      open={record !== null}
      onClose={onClose}
      title={s.editTitle}
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={onClose}>
            {c.cancel}
          </Button>
          <Button type="submit" form={formId} loading={saving}>
            {c.save}
          </Button>
        </>
      }
    >
      {record && <EditRecordForm key={record.id} id={formId} actor={actor} record={record} onDone={onClose} />}
    </Modal>
  );
}

function EditRecordForm({ id, actor, record, onDone }: { id: string; actor: ScanActor; record: ScanRecord; onDone: () => void }): JSX.Element {
  const form = useValibotForm(editSchema, { defaultValues: { count: String(record.count), itemId: record.itemId } });
  async function save(values: v.InferOutput<typeof editSchema>) {
    const changes = {
      ...(values.count !== record.count && { count: values.count }),
      ...(values.itemId !== null && values.itemId !== record.itemId && { itemId: values.itemId }),
    };
    if (Object.keys(changes).length === 0) return onDone();
    actor.send({ type: 'record.modify', id: record.id, changes });
    const after = await waitFor(actor, (snap) => !isSaving(snap));
    if (after.context.notice?.kind === 'saved') onDone();
  }
  return (
    <Form id={id} form={form} onSubmit={save} className="flex flex-col gap-4">
      <p className="text-sm text-slate-600">
        {c.tracking} {record.trackingId} · {c.upc} {record.upc}
      </p>
      <TextField<v.InferInput<typeof editSchema>, 'count'> name="count" label={c.count} type="number" min={1} step={1} />
      <ItemPickerField<v.InferInput<typeof editSchema>, 'itemId'> name="itemId" label={c.item} />
    </Form>
  );
}
