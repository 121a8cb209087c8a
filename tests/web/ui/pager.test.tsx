// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_SIZE_OPTIONS, PAGER_JUMP, PAGER_SLOTS, PageSizeSelect, Pager, computePageSlots, jumpTarget } from '../../../src/web/components/ui/pager';

afterEach(cleanup);

const numbers = (slots: ReturnType<typeof computePageSlots>) => slots.filter((s) => typeof s === 'number');

describe('computePageSlots (0-based, element-ui pager-count 7)', () => {
  it('lists every page when there are 7 or fewer', () => {
    expect(computePageSlots(0, 1)).toEqual([0]);
    expect(computePageSlots(2, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(computePageSlots(6, 7)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('treats zero pages as one page', () => {
    expect(computePageSlots(0, 0)).toEqual([0]);
  });

  it('near the start shows the first 6 pages, a forward jump and the last page', () => {
    expect(computePageSlots(0, 20)).toEqual([0, 1, 2, 3, 4, 5, 'next-jump', 19]);
    expect(computePageSlots(3, 20)).toEqual([0, 1, 2, 3, 4, 5, 'next-jump', 19]);
  });

  it('in the middle centres 5 pages between two jumps', () => {
    expect(computePageSlots(4, 20)).toEqual([0, 'prev-jump', 2, 3, 4, 5, 6, 'next-jump', 19]);
    expect(computePageSlots(9, 20)).toEqual([0, 'prev-jump', 7, 8, 9, 10, 11, 'next-jump', 19]);
    expect(computePageSlots(15, 20)).toEqual([0, 'prev-jump', 13, 14, 15, 16, 17, 'next-jump', 19]);
  });

  it('near the end shows the first page, a backward jump and the last 6 pages', () => {
    expect(computePageSlots(16, 20)).toEqual([0, 'prev-jump', 14, 15, 16, 17, 18, 19]);
    expect(computePageSlots(19, 20)).toEqual([0, 'prev-jump', 14, 15, 16, 17, 18, 19]);
  });

  it('handles 8 pages (the smallest count with a jump)', () => {
    expect(computePageSlots(0, 8)).toEqual([0, 1, 2, 3, 4, 5, 'next-jump', 7]);
    expect(computePageSlots(4, 8)).toEqual([0, 'prev-jump', 2, 3, 4, 5, 6, 7]);
  });

  it('never shows more than 7 page numbers, always the first and last, and always the current page', () => {
    for (let total = 1; total <= 30; total++) {
      for (let cur = 0; cur < total; cur++) {
        const slots = computePageSlots(cur, total);
        expect(numbers(slots).length).toBeLessThanOrEqual(PAGER_SLOTS);
        expect(slots[0]).toBe(0);
        expect(slots.at(-1)).toBe(total - 1);
        expect(slots).toContain(cur);
      }
    }
  });

  it('clamps an out-of-range current page', () => {
    expect(computePageSlots(99, 3)).toEqual([0, 1, 2]);
    expect(computePageSlots(-1, 3)).toEqual([0, 1, 2]);
  });

  it('jumps 5 pages and stays in range', () => {
    expect(PAGER_JUMP).toBe(5);
    expect(jumpTarget('next-jump', 9, 20)).toBe(14);
    expect(jumpTarget('prev-jump', 9, 20)).toBe(4);
    expect(jumpTarget('next-jump', 17, 20)).toBe(19);
    expect(jumpTarget('prev-jump', 3, 20)).toBe(0);
  });
});

describe('<Pager>', () => {
  it('calls onChange with the 0-based page of the clicked number', async () => {
    const onChange = vi.fn();
    render(<Pager page={0} totalPages={20} onChange={onChange} />);
    expect(screen.getByRole('button', { name: '第 1 页' }).getAttribute('aria-current')).toBe('page');
    await userEvent.click(screen.getByRole('button', { name: '第 3 页' }));
    expect(onChange).toHaveBeenLastCalledWith(2);
    await userEvent.click(screen.getByRole('button', { name: '第 20 页' }));
    expect(onChange).toHaveBeenLastCalledWith(19);
  });

  it('prev / next move one page and are disabled at the ends', async () => {
    const onChange = vi.fn();
    const { rerender } = render(<Pager page={0} totalPages={3} onChange={onChange} />);
    expect(screen.getByRole('button', { name: '上一页' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: '下一页' }));
    expect(onChange).toHaveBeenLastCalledWith(1);

    rerender(<Pager page={2} totalPages={3} onChange={onChange} />);
    expect(screen.getByRole('button', { name: '下一页' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: '上一页' }));
    expect(onChange).toHaveBeenLastCalledWith(1);
  });

  it('the ellipses jump 5 pages', async () => {
    const onChange = vi.fn();
    render(<Pager page={9} totalPages={20} onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: '向后 5 页' }));
    expect(onChange).toHaveBeenLastCalledWith(14);
    await userEvent.click(screen.getByRole('button', { name: '向前 5 页' }));
    expect(onChange).toHaveBeenLastCalledWith(4);
  });

  it('does not report the page it is already on', async () => {
    const onChange = vi.fn();
    render(<Pager page={1} totalPages={3} onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: '第 2 页' }));
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('<PageSizeSelect>', () => {
  it('offers the given sizes and reports the chosen one as a number', async () => {
    const onChange = vi.fn();
    render(<PageSizeSelect value={20} options={PAGE_SIZE_OPTIONS.withdraw} onChange={onChange} />);
    const select = screen.getByLabelText('每页');
    expect(Array.from((select as HTMLSelectElement).options, (o) => o.value)).toEqual(['20', '50', '100', '500', '1000']);
    await userEvent.selectOptions(select, '100');
    expect(onChange).toHaveBeenCalledWith(100);
  });

  it('has the SPEC §9 option lists', () => {
    expect(PAGE_SIZE_OPTIONS.uploadResults).toEqual([20, 40, 60, 100, 200, 100000]);
    expect(PAGE_SIZE_OPTIONS.boardAndItem).toEqual([10, 15, 20, 40, 60, 100, 200, 500]);
  });
});
