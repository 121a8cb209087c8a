// The dialog of confirmDialog() (confirm.tsx), loaded on demand: it brings Headless UI's dialog.
import type { JSX } from 'react';
import { Button } from './button';
import type { ConfirmRequest } from './confirm-request';
import { Modal } from './dialog';
import { UI_TEXT } from './ui-text';

/** Shows the oldest request (closed when there is none); onAnswer settles it. */
export function ConfirmDialog({ request, onAnswer }: { request: ConfirmRequest | undefined; onAnswer: (ok: boolean) => void }): JSX.Element {
  return (
    <Modal
      open={request !== undefined}
      onClose={() => onAnswer(false)}
      title={request?.title ?? UI_TEXT.confirmTitle}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={() => onAnswer(false)}>
            {request?.cancelText ?? UI_TEXT.cancel}
          </Button>
          <Button variant={request?.danger ? 'danger' : 'primary'} onClick={() => onAnswer(true)}>
            {request?.okText ?? UI_TEXT.ok}
          </Button>
        </>
      }
    >
      <p className="whitespace-pre-line">{request?.message}</p>
    </Modal>
  );
}
