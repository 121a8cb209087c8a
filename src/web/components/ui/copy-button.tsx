// A button that copies one value to the clipboard and says so on itself (已复制). The Clipboard API
// exists only in secure contexts; a warehouse PC on plain http has none, so the old select-and-copy
// runs there, on a textarea placed beside the button (inside an open dialog, whose focus trap would
// pull focus back from one appended to the body). A copy that fails says so in a toast.
import { useState, type JSX, type MouseEvent } from 'react';
import { Button } from './button';
import { toast } from './toast';
import { UI_TEXT } from './ui-text';

function copyBeside(anchor: HTMLElement, value: string): boolean {
  const area = document.createElement('textarea');
  area.value = value;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  anchor.after(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    anchor.focus();
  }
}

async function copyText(value: string, anchor: HTMLElement): Promise<boolean> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(value);
      return true;
    } catch {
      // Refused (no permission, page not focused): try the old way.
    }
  }
  return copyBeside(anchor, value);
}

export interface CopyButtonProps {
  value: string;
  /** Accessible name, e.g. '复制户名'. */
  label: string;
}

export function CopyButton({ value, label }: CopyButtonProps): JSX.Element {
  const [copied, setCopied] = useState(false);
  async function copy(event: MouseEvent<HTMLButtonElement>) {
    const ok = await copyText(value, event.currentTarget);
    setCopied(ok);
    if (!ok) toast.error(UI_TEXT.copyFailed);
  }
  return (
    <Button variant="secondary" size="sm" aria-label={label} onClick={(event) => void copy(event)}>
      {copied ? UI_TEXT.copied : UI_TEXT.copy}
    </Button>
  );
}
