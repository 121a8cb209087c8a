// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Checkbox, Form, FormError, PasswordField, SelectField, TextArea, TextField, required, useValibotForm } from '../../../src/web/components/ui/form';
import { Button } from '../../../src/web/components/ui/button';

afterEach(cleanup);

const schema = v.object({
  mailAddr: required('用户名'),
  pwd: required('密码'),
  note: v.string(),
  keep: v.boolean(),
  cardType: v.picklist(['visa', 'master'], '请选择卡类型'),
});
type Output = v.InferOutput<typeof schema>;

function LoginLike({ onSubmit, onEnter }: { onSubmit: (data: Output) => void; onEnter?: () => void }) {
  const form = useValibotForm(schema, {
    defaultValues: { mailAddr: '', pwd: '', note: '', keep: false, cardType: undefined },
  });
  return (
    <Form form={form} onSubmit={onSubmit}>
      <TextField name="mailAddr" label="用户名" />
      <PasswordField
        name="pwd"
        label="密码"
        onKeyDown={(e) => {
          if (e.key === 'Enter') onEnter?.();
        }}
      />
      <TextArea name="note" label="备注" />
      <Checkbox name="keep" label="保持登录" />
      <SelectField
        name="cardType"
        label="卡类型"
        options={[
          { value: 'visa', label: 'Visa' },
          { value: 'master', label: 'Master' },
        ]}
      />
      <Button type="submit">登录</Button>
    </Form>
  );
}

describe('form fields with valibot', () => {
  it("shows '{label}为必填项' under each empty required field on submit", async () => {
    const onSubmit = vi.fn();
    render(<LoginLike onSubmit={onSubmit} />);
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    const messages = (await screen.findAllByRole('alert')).map((a) => a.textContent);
    expect(messages).toEqual(['用户名为必填项', '密码为必填项', '请选择卡类型']);
    expect(onSubmit).not.toHaveBeenCalled();
    const user = screen.getByLabelText('用户名');
    expect(user.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(user.getAttribute('aria-describedby')!)?.textContent).toBe('用户名为必填项');
  });

  it('treats whitespace as empty and submits trimmed, typed values', async () => {
    const onSubmit = vi.fn();
    render(<LoginLike onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('用户名'), '   ');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('用户名为必填项')).toBeTruthy();

    await userEvent.type(screen.getByLabelText('用户名'), ' ada@example.com ');
    await userEvent.type(screen.getByLabelText('密码'), 'secret');
    await userEvent.type(screen.getByLabelText('备注'), 'hi');
    await userEvent.click(screen.getByLabelText('保持登录'));
    await userEvent.selectOptions(screen.getByLabelText('卡类型'), 'master');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      mailAddr: 'ada@example.com',
      pwd: 'secret',
      note: 'hi',
      keep: true,
      cardType: 'master',
    });
  });

  it('passes onKeyDown through (Enter in the password field)', async () => {
    const onEnter = vi.fn();
    render(<LoginLike onSubmit={vi.fn()} onEnter={onEnter} />);
    await userEvent.type(screen.getByLabelText('密码'), 'x{Enter}');
    expect(onEnter).toHaveBeenCalledTimes(1);
  });

  it('works with an explicit control, readOnly and onBlur', async () => {
    const onBlur = vi.fn();
    function Standalone() {
      const form = useValibotForm(v.object({ name: required('名称') }), { defaultValues: { name: '固定' } });
      return <TextField control={form.control} name="name" label="名称" readOnly onBlur={onBlur} />;
    }
    render(<Standalone />);
    const input = screen.getByLabelText('名称') as HTMLInputElement;
    expect(input.readOnly).toBe(true);
    expect(input.value).toBe('固定');
    await userEvent.click(input);
    await userEvent.tab();
    expect(onBlur).toHaveBeenCalledTimes(1);
  });
});

describe('<FormError>', () => {
  it('renders nothing without a message and an alert with one', () => {
    const { rerender } = render(<FormError message={null} />);
    expect(screen.queryByRole('alert')).toBeNull();
    rerender(<FormError message="用户名或密码错误" />);
    expect(screen.getByRole('alert').textContent).toBe('用户名或密码错误');
  });
});
