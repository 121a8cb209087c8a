import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { TASK_STATUSES } from '../../../machines/task.machine';
import { editCountSchema } from '../../../src/web/features/tasks/edit-count-dialog';
import { parseTaskIdSearch } from '../../../src/web/features/tasks/my-task-search';
import { canMatch, memberTaskActions, offersLabelPdf, offersRecords, taskDisplayId } from '../../../src/web/features/tasks/task-actions';
import { failureText } from '../../../src/web/features/tasks/task-outcomes';
import { canChangeRecord, recordFormSchema } from '../../../src/web/features/tasks/task-record-dialog';
import { formatFileSize, isSheetFile } from '../../../src/web/lib/excel-file';
import { pageOf } from '../../../src/web/components/upload-result-table';

const facts = (status: (typeof TASK_STATUSES)[number], productCount = 0, canSplit = false, isHome = false) => ({ status, productCount, canSplit, isHome });

describe('member task actions (SPEC §4, through the task machine)', () => {
  it('pending and deleted tasks offer nothing', () => {
    expect(memberTaskActions(facts('pending'))).toEqual([]);
    expect(memberTaskActions(facts('deleted', 0, true, true))).toEqual([]);
  });
  it('edit only when open; delete when open or unmatch with productCount 0; split with canSplit; match unless locked', () => {
    expect(memberTaskActions(facts('open'))).toEqual(['upload', 'records', 'edit', 'delete', 'match']);
    expect(memberTaskActions(facts('open', 1, true))).toEqual(['upload', 'records', 'edit', 'split', 'match']);
    expect(memberTaskActions(facts('unmatch'))).toEqual(['upload', 'records', 'delete', 'match']);
    expect(memberTaskActions(facts('unmatch', 2, true))).toEqual(['upload', 'records', 'split', 'match']);
    // Records stay readable beyond open and unmatch; uploading more is the machine's task.records, as the server asks it.
    for (const status of ['closed', 'locked', 'processing', 'finished'] as const) {
      expect(memberTaskActions(facts(status, 2, true))).toEqual(['records']);
    }
  });
  it('the label PDF for a task shipped home, under the records rule', () => {
    expect(memberTaskActions(facts('locked', 2, false, true))).toEqual(['records', 'labelPdf']);
    expect(offersLabelPdf({ status: 'pending', isHome: true })).toBe(false);
    expect(offersLabelPdf({ status: 'open', isHome: false })).toBe(false);
    expect(TASK_STATUSES.filter(offersRecords)).toEqual(['open', 'closed', 'locked', 'processing', 'finished', 'unmatch']);
  });
  it('canMatch follows the machine', () => {
    expect(TASK_STATUSES.filter((status) => canMatch({ status, productCount: 0, canSplit: false }))).toEqual(['open', 'unmatch']);
  });
  it('task ids read mainId, plus -subId when subId is not 0', () => {
    expect(taskDisplayId({ mainId: 41, subId: 0 })).toBe('41');
    expect(taskDisplayId({ mainId: 41, subId: 2 })).toBe('41-2');
  });
});

describe('the record form (SPEC §5)', () => {
  const issuesOf = (values: Record<string, unknown>) => {
    const result = v.safeParse(recordFormSchema, values);
    return result.success ? {} : Object.fromEntries(result.issues.map((i) => [v.getDotPath(i), i.message]));
  };
  it("requires trackingId ('请填写trackingId') and count ('请填写数目')", () => {
    expect(issuesOf({ trackingId: '  ', productCount: '' })).toEqual({ trackingId: '请填写trackingId', productCount: '请填写数目' });
    expect(issuesOf({ trackingId: '1Z', productCount: '0' })).toEqual({ productCount: '数目须为正整数' });
    expect(v.parse(recordFormSchema, { trackingId: ' 1Z ', productCount: ' 3 ' })).toEqual({ trackingId: '1Z', productCount: 3 });
  });
  it('a matched record cannot be changed, nor any record beyond open and unmatch, and the admin view changes none', () => {
    const task = (status: (typeof TASK_STATUSES)[number]) => ({ status, productCount: 0, canSplit: false });
    expect(canChangeRecord('user', { status: 'match' }, task('open'))).toBe(false);
    expect(canChangeRecord('user', { status: 'unmatch' }, task('open'))).toBe(true);
    expect(canChangeRecord('user', { status: 'unmatch' }, task('unmatch'))).toBe(true);
    expect(canChangeRecord('user', { status: 'init' }, task('locked'))).toBe(false);
    expect(canChangeRecord('admin', { status: 'init' }, task('open'))).toBe(false);
  });
});

describe('the edit-count form reads claimFieldErrors in edit mode', () => {
  const target = { boardStatus: 'open', boardExpired: false, boardTaskStatus: 'normal', show: 10, claimed: 7 } as const;
  const issuesOf = (values: Record<string, unknown>, own = 2) => {
    const result = v.safeParse(editCountSchema(target, own), values);
    return result.success ? {} : Object.fromEntries(result.issues.map((i) => [v.getDotPath(i), i.message]));
  };
  it('counts the task’s own units as remaining', () => {
    const base = { isHome: false, state: '', zipCode: '', labelCount: '' };
    expect(issuesOf({ ...base, count: '5' })).toEqual({});
    expect(issuesOf({ ...base, count: '6' })).toEqual({ count: '不能认领超过5件' });
    expect(issuesOf({ ...base, count: '0' })).toEqual({ count: '认领数量至少为1件' });
    expect(issuesOf({ count: '1', isHome: true, state: 'NY', zipCode: '10001', labelCount: '' })).toEqual({ labelCount: '请填写标签数量' });
  });
  it('without the board task’s limits only the number itself is checked', () => {
    const result = v.safeParse(editCountSchema(null, 2), { count: '999', isHome: false, state: '', zipCode: '', labelCount: '' });
    expect(result.success).toBe(true);
  });
});

describe('small helpers', () => {
  it('parses a task id search as mainId or mainId-subId', () => {
    expect(parseTaskIdSearch('')).toBeUndefined();
    expect(parseTaskIdSearch(' 102 ')).toBe(102);
    expect(parseTaskIdSearch('102-3')).toBe(102);
    expect(parseTaskIdSearch('abc')).toBeNaN();
    expect(parseTaskIdSearch('0')).toBeNaN();
  });
  it('words failures with SPEC text first', () => {
    expect(failureText('拆分失败', '')).toBe('拆分失败');
    expect(failureText('拆分失败', '拆分失败')).toBe('拆分失败');
    expect(failureText('删除失败', '只有进行中的任务可以删除')).toBe('删除失败：只有进行中的任务可以删除');
  });
  it('pages rows in the browser', () => {
    const rows = Array.from({ length: 45 }, (_, i) => i);
    expect(pageOf(rows, 2, 20)).toEqual([40, 41, 42, 43, 44]);
    expect(pageOf(rows, 0, 100000)).toHaveLength(45);
  });
  it('accepts the spreadsheet files the server reads and formats sizes', () => {
    expect(['a.XLSX', 'a.xls', 'b.ods', 'c.CSV'].map((name) => isSheetFile({ name }))).toEqual([true, true, true, true]);
    expect(['a.pdf', 'a.xlsx.png', 'xlsx'].map((name) => isSheetFile({ name }))).toEqual([false, false, false]);
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(2048)).toBe('2 KB');
    expect(formatFileSize(3.5 * 1024 * 1024)).toBe('3.5 MB');
  });
});
