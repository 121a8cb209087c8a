// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS, Toaster, clearToasts, formatErrorToast, toast } from '../../../src/web/components/ui/toast';

describe('toast', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    act(() => clearToasts());
    vi.useRealTimers();
  });

  it('shows a toast raised outside React and removes it after ~3 s', () => {
    render(<Toaster />);
    act(() => toast.success('保存成功'));
    const shown = screen.getByRole('status');
    expect(shown.textContent).toContain('保存成功');
    expect(shown.dataset.tone).toBe('success');

    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.queryByText('保存成功')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('保存成功')).toBeNull();
  });

  it('uses role alert for errors and stacks several toasts', () => {
    render(<Toaster />);
    act(() => {
      toast.error('A00001 参数错误');
      toast.info('提示');
    });
    expect(screen.getByRole('alert').textContent).toContain('A00001 参数错误');
    expect(screen.getByRole('alert').dataset.tone).toBe('error');
    expect(screen.getByRole('status').textContent).toContain('提示');
  });

  it('can be closed by hand', () => {
    render(<Toaster />);
    act(() => toast.info('可关闭'));
    act(() => screen.getByRole('button', { name: '关闭' }).click());
    expect(screen.queryByText('可关闭')).toBeNull();
  });
});

describe('formatErrorToast', () => {
  it('puts the code before the message (SPEC §8)', () => {
    expect(formatErrorToast('A00001', '参数错误')).toBe('A00001 参数错误');
  });
  it('is just the message without a code', () => {
    expect(formatErrorToast(undefined, '系统错误')).toBe('系统错误');
    expect(formatErrorToast('', '系统错误')).toBe('系统错误');
  });
  it("falls back to 'unknown error' for an empty message", () => {
    expect(formatErrorToast('A00005', '')).toBe('A00005 unknown error');
  });
});
