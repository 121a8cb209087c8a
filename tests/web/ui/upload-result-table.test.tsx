// @vitest-environment happy-dom
// An upload's result on a phone: a card a row (the tracking id heads it, the status beside it, the
// rest labelled, empty values left off), not nine columns scrolled sideways.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { UploadResultTable } from '../../../src/web/components/upload-result-table';
import type { UploadResultRow } from '../../../src/web/lib/excel-upload';
import { atDesktopWidth, atPhoneWidth } from '../support/viewport';

afterEach(() => {
  cleanup();
  atDesktopWidth();
});

const ROWS: UploadResultRow[] = [
  { line: 2, tracking: '1Z001', name: '蓝牙耳机', itemId: 5, express: 'UPS', qty: 1, oldQty: null, opStatus: 'succ', msg: '' },
  { line: 3, tracking: '1Z002', name: '', itemId: null, express: '', qty: null, oldQty: null, opStatus: 'error', msg: '任务不存在' },
];

it('lays the rows out as cards on a phone, each headed by its tracking id with its status and message', () => {
  atPhoneWidth();
  render(<UploadResultTable rows={ROWS} />);
  expect(screen.queryByRole('table')).toBeNull();
  const cards = within(screen.getByRole('list', { name: '上传结果' })).getAllByRole('listitem');
  expect(cards).toHaveLength(2);
  const fieldsOf = (card: HTMLElement) =>
    Object.fromEntries([...card.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]));
  expect(within(cards[0]!).getByText('1Z001')).toBeTruthy();
  expect(within(cards[0]!).getByText('成功')).toBeTruthy();
  expect(fieldsOf(cards[0]!)).toMatchObject({ 行号: '2', 商品名称: '蓝牙耳机', 快递: 'UPS' });
  expect(within(cards[1]!).getByText('失败')).toBeTruthy();
  expect(fieldsOf(cards[1]!)).toEqual({ 行号: '3', 信息: '任务不存在' });
});

it('keeps the table on a desktop', () => {
  render(<UploadResultTable rows={ROWS} />);
  expect(within(screen.getByRole('table', { name: '上传结果' })).getAllByRole('row')).toHaveLength(3);
});
