// A dialog's save, one at a time: a second Enter or click while the call is under way does nothing
// (a ref, set before React renders again, so two key presses in one frame send one call), and
// `saving` disables the dialog's buttons and keeps it open until the answer is in.
import { useCallback, useRef, useState } from 'react';

export function useSaveOnce(onSavingChange?: (saving: boolean) => void): { saving: boolean; saveOnce: (save: () => Promise<void>) => Promise<void> } {
  const [saving, setSaving] = useState(false);
  const inFlight = useRef(false);
  const saveOnce = useCallback(
    async (save: () => Promise<void>) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setSaving(true);
      onSavingChange?.(true);
      try {
        await save();
      } finally {
        inFlight.current = false;
        setSaving(false);
        onSavingChange?.(false);
      }
    },
    [onSavingChange],
  );
  return { saving, saveOnce };
}
