// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Modal } from '../../../src/web/components/ui/dialog';
import { TOAST_DURATION_MS, Toaster, clearToasts, toast } from '../../../src/web/components/ui/toast';

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

describe('toast with a dialog open', () => {
  afterEach(() => {
    cleanup();
    act(() => clearToasts());
  });

  /** Hidden from assistive technology or from the pointer: inert or aria-hidden, itself or an ancestor. */
  function hiddenByDialog(element: Element): boolean {
    for (let node: Element | null = element; node; node = node.parentElement) {
      if ((node as HTMLElement).inert || node.getAttribute('aria-hidden') === 'true') return true;
    }
    return false;
  }

  it('is announced and can be closed without closing the dialog (the app root is inert meanwhile)', async () => {
    const onClose = vi.fn();
    // As in the shell: the host and the page (whose dialog opens) share the app root.
    const { container } = render(
      <>
        <Modal open onClose={onClose} title="编辑">
          对话框内容
        </Modal>
        <Toaster />
      </>,
    );
    expect(await screen.findByRole('dialog')).toBeTruthy();
    // Headless UI has made the app root inert, so the test is about the case it describes.
    await waitFor(() => expect(hiddenByDialog(container)).toBe(true));

    act(() => toast.error('A00001 参数错误'));
    const shown = screen.getByRole('alert');
    expect(shown.textContent).toContain('A00001 参数错误');
    expect(hiddenByDialog(shown)).toBe(false);

    await userEvent.click(within(shown).getByRole('button', { name: '关闭' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog').textContent).toContain('对话框内容');
  });
});
