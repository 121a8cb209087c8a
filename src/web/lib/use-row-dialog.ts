// The dialog a list row opens (a note, a report, a change of card, an edit): the row it is open for,
// `open` (a stable setter, safe in a table's column memo), `close`, and `done`, which closes it and
// reloads the route's data, so the list shows what the dialog saved.
import { useRouter } from '@tanstack/react-router';
import { useCallback, useState } from 'react';

export function useRowDialog<T>(): { row: T | null; open: (row: T | null) => void; close: () => void; done: () => void } {
  const router = useRouter();
  const [row, open] = useState<T | null>(null);
  const close = useCallback(() => open(null), []);
  const done = useCallback(() => {
    open(null);
    void router.invalidate();
  }, [router]);
  return { row, open, close, done };
}
