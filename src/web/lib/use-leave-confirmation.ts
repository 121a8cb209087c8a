// "Leaving asks for confirmation" (SPEC §2 upload pages): while `active`, a navigation to another
// page waits for the confirmation dialog (TanStack Router's useBlocker) and closing or reloading the
// tab gets the browser's own prompt (beforeunload; browsers show their own words there). A change of
// the search params only (a tab of the same page) is not leaving and goes through.
import { useBlocker } from '@tanstack/react-router';
import { confirmDialog } from '../components/ui/confirm';
import { zh } from '../i18n/zh';

export function useLeaveConfirmation(active: boolean, message: string = zh.uploads.leaveConfirm): void {
  useBlocker({
    shouldBlockFn: async ({ current, next }) =>
      current.pathname !== next.pathname &&
      !(await confirmDialog(message, { title: zh.uploads.leaveTitle, okText: zh.uploads.leave, cancelText: zh.uploads.stay, danger: true })),
    enableBeforeUnload: active,
    disabled: !active,
  });
}
