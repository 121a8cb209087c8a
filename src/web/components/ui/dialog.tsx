import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import type { JSX, ReactNode } from 'react';
import { UI_TEXT } from './ui-text';

export type ModalSize = 'sm' | 'md' | 'lg' | 'xl';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children?: ReactNode;
  /** Buttons, right-aligned under the body. */
  footer?: ReactNode;
  size?: ModalSize;
}

const SIZE_CLASS: Record<ModalSize, string> = {
  sm: 'max-w-sm',
  md: 'max-w-lg',
  lg: 'max-w-2xl',
  xl: 'max-w-5xl',
};

export function Modal({ open, onClose, title, children, footer, size = 'md' }: ModalProps): JSX.Element {
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-4">
        <DialogPanel className={`w-full ${SIZE_CLASS[size]} rounded-lg bg-white shadow-xl`}>
          <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3">
            <DialogTitle className="text-base font-semibold text-slate-900">{title}</DialogTitle>
            <button
              type="button"
              aria-label={UI_TEXT.close}
              onClick={onClose}
              className="rounded px-1 text-xl leading-none text-slate-500 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-blue-500"
            >
              ×
            </button>
          </div>
          {children !== undefined && <div className="px-5 py-4 text-sm text-slate-700">{children}</div>}
          {footer !== undefined && <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3">{footer}</div>}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
