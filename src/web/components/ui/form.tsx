// Form fields bound to react-hook-form through useController, validated by a valibot schema (the same
// schema the server can use). Each field puts its label above, its error message under it, and passes
// through onBlur / onKeyDown / onChange so pages can add behaviour (e.g. submit on Enter at login).
import { valibotResolver } from '@hookform/resolvers/valibot';
import { useId, type ComponentProps, type FocusEvent, type JSX, type ReactNode } from 'react';
import {
  FormProvider,
  useController,
  useForm,
  type Control,
  type FieldPath,
  type FieldValues,
  type SubmitHandler,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import * as v from 'valibot';
import { UI_TEXT } from './ui-text';

// ---------------------------------------------------------------- schema helpers

/** SPEC §5: a field that must be non-empty after trimming, else '{label}为必填项'. */
export function required(label: string) {
  const message = UI_TEXT.requiredField(label);
  return v.pipe(v.string(message), v.trim(), v.nonEmpty(message));
}

export type ValibotFormSchema = v.GenericSchema<FieldValues, FieldValues>;

/** useForm with the valibot resolver; validation runs on submit unless `options.mode` says otherwise. */
export function useValibotForm<S extends ValibotFormSchema>(
  schema: S,
  options?: Omit<UseFormProps<v.InferInput<S>, unknown, v.InferOutput<S>>, 'resolver'>,
): UseFormReturn<v.InferInput<S>, unknown, v.InferOutput<S>> {
  return useForm<v.InferInput<S>, unknown, v.InferOutput<S>>({
    resolver: valibotResolver<v.InferInput<S>, unknown, v.InferOutput<S>>(schema),
    mode: 'onSubmit',
    ...options,
  });
}

export interface FormProps<T extends FieldValues, TOut> extends Omit<ComponentProps<'form'>, 'onSubmit' | 'noValidate'> {
  form: UseFormReturn<T, unknown, TOut>;
  onSubmit: SubmitHandler<TOut>;
}

/** A <form> that provides `form` to the fields below it (so they need no `control` prop). */
export function Form<T extends FieldValues, TOut>({ form, onSubmit, children, ...rest }: FormProps<T, TOut>): JSX.Element {
  return (
    <FormProvider {...form}>
      <form {...rest} noValidate onSubmit={(e) => void form.handleSubmit(onSubmit)(e)}>
        {children}
      </form>
    </FormProvider>
  );
}

// ---------------------------------------------------------------- field shell

interface FieldBaseProps<T extends FieldValues, N extends FieldPath<T>> {
  name: N;
  label: ReactNode;
  /** Optional inside <Form>; required otherwise. */
  control?: Control<T, unknown, FieldValues>;
  hint?: ReactNode;
  /** Classes for the wrapper (label + control + message). */
  className?: string;
}

const inputClass =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-sm ' +
  'placeholder:text-slate-500 focus:border-blue-500 focus:outline-2 focus:outline-blue-500/30 ' +
  'read-only:bg-slate-50 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 ' +
  'aria-invalid:border-red-500';

function FieldMessage({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  if (error) {
    return (
      <p id={id} role="alert" className="mt-1 text-xs text-red-600">
        {error}
      </p>
    );
  }
  return hint ? (
    <p id={id} className="mt-1 text-xs text-slate-500">
      {hint}
    </p>
  ) : null;
}

function useField<T extends FieldValues, N extends FieldPath<T>>(name: N, control: Control<T, unknown, FieldValues> | undefined) {
  const id = useId();
  const { field, fieldState } = useController<T, N>({ name, control: control as Control<T> | undefined });
  const error = fieldState.error?.message;
  const messageId = `${id}-message`;
  return { id, field, error, messageId };
}

function describe(error: string | undefined, hint: ReactNode, messageId: string) {
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error || hint ? messageId : undefined,
  } as const;
}

// ---------------------------------------------------------------- text inputs

type NativeInputProps = Omit<ComponentProps<'input'>, 'name' | 'value' | 'defaultValue' | 'checked' | 'ref' | 'className' | 'children'>;

export type TextFieldProps<T extends FieldValues, N extends FieldPath<T>> = FieldBaseProps<T, N> & NativeInputProps & { inputClassName?: string };

export function TextField<T extends FieldValues, N extends FieldPath<T>>({
  name,
  label,
  control,
  hint,
  className = '',
  inputClassName = '',
  type = 'text',
  onBlur,
  onChange,
  ...rest
}: TextFieldProps<T, N>): JSX.Element {
  const { id, field, error, messageId } = useField(name, control);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        {...rest}
        {...describe(error, hint, messageId)}
        id={id}
        type={type}
        ref={field.ref}
        name={field.name}
        value={(field.value as string | number | undefined) ?? ''}
        disabled={rest.disabled ?? field.disabled}
        onChange={(e) => {
          field.onChange(e);
          onChange?.(e);
        }}
        onBlur={(e: FocusEvent<HTMLInputElement>) => {
          field.onBlur();
          onBlur?.(e);
        }}
        className={`${inputClass} ${inputClassName}`}
      />
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

export function PasswordField<T extends FieldValues, N extends FieldPath<T>>(props: Omit<TextFieldProps<T, N>, 'type'>): JSX.Element {
  return <TextField autoComplete="current-password" {...props} type="password" />;
}

type NativeTextAreaProps = Omit<ComponentProps<'textarea'>, 'name' | 'value' | 'defaultValue' | 'ref' | 'className' | 'children'>;

export type TextAreaProps<T extends FieldValues, N extends FieldPath<T>> = FieldBaseProps<T, N> & NativeTextAreaProps & { inputClassName?: string };

export function TextArea<T extends FieldValues, N extends FieldPath<T>>({
  name,
  label,
  control,
  hint,
  className = '',
  inputClassName = '',
  rows = 4,
  onBlur,
  onChange,
  ...rest
}: TextAreaProps<T, N>): JSX.Element {
  const { id, field, error, messageId } = useField(name, control);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        {...rest}
        {...describe(error, hint, messageId)}
        id={id}
        rows={rows}
        ref={field.ref}
        name={field.name}
        value={(field.value as string | undefined) ?? ''}
        disabled={rest.disabled ?? field.disabled}
        onChange={(e) => {
          field.onChange(e);
          onChange?.(e);
        }}
        onBlur={(e) => {
          field.onBlur();
          onBlur?.(e);
        }}
        className={`${inputClass} ${inputClassName}`}
      />
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

// ---------------------------------------------------------------- checkbox

export type CheckboxProps<T extends FieldValues, N extends FieldPath<T>> = FieldBaseProps<T, N> &
  Omit<NativeInputProps, 'type' | 'readOnly'> & {
    /** A read-only checkbox cannot be toggled (native checkboxes ignore readOnly). */
    readOnly?: boolean;
  };

export function Checkbox<T extends FieldValues, N extends FieldPath<T>>({
  name,
  label,
  control,
  hint,
  className = '',
  readOnly = false,
  onBlur,
  onChange,
  ...rest
}: CheckboxProps<T, N>): JSX.Element {
  const { id, field, error, messageId } = useField(name, control);
  return (
    <div className={className}>
      <div className="flex items-center gap-2">
        <input
          {...rest}
          {...describe(error, hint, messageId)}
          id={id}
          type="checkbox"
          ref={field.ref}
          name={field.name}
          checked={Boolean(field.value)}
          aria-readonly={readOnly || undefined}
          disabled={rest.disabled ?? field.disabled}
          onChange={(e) => {
            if (readOnly) return;
            field.onChange(e.target.checked);
            onChange?.(e);
          }}
          onBlur={(e) => {
            field.onBlur();
            onBlur?.(e);
          }}
          className="size-4 rounded border-slate-300 text-blue-600 focus-visible:outline-2 focus-visible:outline-blue-500"
        />
        <label htmlFor={id} className="text-sm text-slate-700">
          {label}
        </label>
      </div>
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

// ---------------------------------------------------------------- select

export interface SelectOption<V extends string | number = string> {
  value: V;
  label: string;
  disabled?: boolean;
}

type NativeSelectProps = Omit<ComponentProps<'select'>, 'name' | 'value' | 'defaultValue' | 'ref' | 'className' | 'children' | 'multiple'>;

export type SelectFieldProps<T extends FieldValues, N extends FieldPath<T>, V extends string | number = string> = FieldBaseProps<T, N> &
  NativeSelectProps & {
    options: ReadonlyArray<SelectOption<V>>;
    /** Text of the empty first option; '请选择' by default, `false` for none. Choosing it sets ''. */
    placeholder?: string | false;
    readOnly?: boolean;
    inputClassName?: string;
  };

/** A native <select>: keyboard and screen-reader support for free. Option values keep their type. */
export function SelectField<T extends FieldValues, N extends FieldPath<T>, V extends string | number = string>({
  name,
  label,
  control,
  hint,
  className = '',
  inputClassName = '',
  options,
  placeholder = UI_TEXT.pleaseSelect,
  readOnly = false,
  onBlur,
  onChange,
  ...rest
}: SelectFieldProps<T, N, V>): JSX.Element {
  const { id, field, error, messageId } = useField(name, control);
  const current = field.value as V | '' | null | undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        {...rest}
        {...describe(error, hint, messageId)}
        id={id}
        ref={field.ref}
        name={field.name}
        value={current === null || current === undefined ? '' : String(current)}
        aria-readonly={readOnly || undefined}
        disabled={rest.disabled ?? field.disabled}
        onChange={(e) => {
          if (readOnly) return;
          const picked = options.find((o) => String(o.value) === e.target.value);
          field.onChange(picked ? picked.value : '');
          onChange?.(e);
        }}
        onBlur={(e) => {
          field.onBlur();
          onBlur?.(e);
        }}
        className={`${inputClass} ${readOnly ? 'pointer-events-none bg-slate-50' : ''} ${inputClassName}`}
      >
        {placeholder !== false && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={String(o.value)} value={String(o.value)} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

// ---------------------------------------------------------------- form-level error

export interface FormErrorProps {
  message?: string | null;
  children?: ReactNode;
  className?: string;
}

/** A form-level message (e.g. the server's answer to a submit); renders nothing when empty. */
export function FormError({ message, children, className = '' }: FormErrorProps): JSX.Element | null {
  const content = children ?? message;
  if (!content) return null;
  return (
    <div role="alert" className={`rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700 ${className}`}>
      {content}
    </div>
  );
}
