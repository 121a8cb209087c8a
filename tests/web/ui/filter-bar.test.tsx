// @vitest-environment happy-dom
// The filter bar on a phone (decision 006): folded behind one 筛选 button that says how many filters
// the list has set, opened by it; at a desktop's width the fields show with no button.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FilterBar, setFilterCount } from '../../../src/web/components/ui/filter-bar';
import { SelectField, TextField, useValibotForm } from '../../../src/web/components/ui/form';
import { atDesktopWidth, atPhoneWidth } from '../support/viewport';

afterEach(() => {
  cleanup();
  atDesktopWidth();
});

const schema = v.object({ name: v.string(), status: v.string(), sort: v.picklist(['desc', 'asc']) });
type Values = v.InferOutput<typeof schema>;

function Filters({ start, onSubmit }: { start: Values; onSubmit: (values: Values) => void }) {
  const form = useValibotForm(schema, { defaultValues: start });
  return (
    <FilterBar form={form} onSubmit={onSubmit} onReset={() => {}} layout="grid">
      <TextField<Values, 'name'> name="name" label="商品名称" />
      <SelectField<Values, 'status', string> name="status" label="状态" options={[{ value: 'open', label: '进行中' }]} placeholder="全部状态" />
    </FilterBar>
  );
}

describe('FilterBar on a phone', () => {
  it('folds the fields behind 筛选 with the number set (the sort is no filter); the button opens them and 查询 still submits', async () => {
    atPhoneWidth();
    const submit = vi.fn();
    render(<Filters start={{ name: '耳机', status: 'open', sort: 'asc' }} onSubmit={submit} />);
    const toggle = screen.getByRole('button', { name: '筛选（已设 2 项）' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('textbox', { name: '商品名称' })).toBeNull(); // hidden, not in the page's reading
    const user = userEvent.setup();
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await user.clear(screen.getByRole('textbox', { name: '商品名称' }));
    await user.click(screen.getByRole('button', { name: '查询' }));
    expect(submit).toHaveBeenCalledWith({ name: '', status: 'open', sort: 'asc' }, expect.anything());
  });

  it('says 筛选 alone when nothing is set; a desktop shows the fields and no button', () => {
    atPhoneWidth();
    render(<Filters start={{ name: '', status: '', sort: 'desc' }} onSubmit={() => {}} />);
    expect(screen.getByRole('button', { name: '筛选' })).toBeTruthy();
    cleanup();
    atDesktopWidth();
    render(<Filters start={{ name: '', status: '', sort: 'desc' }} onSubmit={() => {}} />);
    expect(screen.queryByRole('button', { name: /^筛选/ })).toBeNull();
    expect(screen.getByRole('textbox', { name: '商品名称' })).toBeTruthy();
  });

  it('counts blank, off, all and empty lists as unset', () => {
    expect(setFilterCount({ a: '', b: null, c: false, d: 'all', e: [], sort: 'asc', isDesc: false, f: 3, g: 'x', h: true })).toBe(3);
  });
});
