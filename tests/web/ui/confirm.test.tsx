// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialogHost, confirmDialog } from '../../../src/web/components/ui/confirm';
import { StatusBadge } from '../../../src/web/components/ui/status-badge';
import { Button } from '../../../src/web/components/ui/button';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('confirmDialog', () => {
  it('resolves true on 确定 and false on 取消, one request at a time', async () => {
    render(<ConfirmDialogHost />);
    const first = confirmDialog('确定删除吗？', { danger: true });
    const second = confirmDialog('再确认一次？');

    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('确定删除吗？');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await expect(first).resolves.toBe(true);

    expect((await screen.findByRole('dialog')).textContent).toContain('再确认一次？');
    await userEvent.click(screen.getByRole('button', { name: '取消' }));
    await expect(second).resolves.toBe(false);
  });

  it('falls back to window.confirm when no host is mounted', async () => {
    // happy-dom has no window.confirm; stand one in.
    const spy = vi.fn(() => true);
    vi.stubGlobal('confirm', spy);
    await expect(confirmDialog('继续？')).resolves.toBe(true);
    expect(spy).toHaveBeenCalledWith('继续？');
  });
});

describe('small pieces', () => {
  it('Button shows loading and blocks clicks', async () => {
    const onClick = vi.fn();
    render(
      <Button loading onClick={onClick}>
        保存
      </Button>,
    );
    const button = screen.getByRole('button', { name: '保存' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('StatusBadge carries its tone', () => {
    render(<StatusBadge tone="danger">已取消</StatusBadge>);
    expect(screen.getByText('已取消').dataset.tone).toBe('danger');
  });
});
