import type { JSX } from 'react';
import { zh } from '../../i18n/zh';

/** A board task's link: opens in a new tab, without giving that page a handle on this one. */
export function ExternalLink({ url }: { url: string }): JSX.Element | null {
  if (!url) return null;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" title={url} className="text-blue-600 hover:underline">
      {zh.memberBoards.openLink}
    </a>
  );
}
