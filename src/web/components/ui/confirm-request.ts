// A request to confirmDialog() (confirm.tsx), as the queue holds it and the dialog (confirm-dialog.tsx)
// shows it: a file of its own so that the two import it from here and not from each other (the dialog
// is loaded on demand by confirm.tsx; import-x/no-cycle, docs/decisions/039-no-import-cycles.md).
export interface ConfirmOptions {
  title?: string;
  okText?: string;
  cancelText?: string;
  /** Paints the OK button red for destructive actions. */
  danger?: boolean;
}

export interface ConfirmRequest extends ConfirmOptions {
  message: string;
  resolve: (ok: boolean) => void;
}
