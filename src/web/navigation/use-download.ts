// A download button's behaviour (exports, files behind a token): busy while the link is asked for,
// then the link is opened as a document (navigateTo: /ext/... is the server's). No link means the
// client has already said why; a network error too.
import { useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { navigateTo } from './navigate-to';

export function useDownload(): { busy: boolean; download: (link: () => Promise<string | null>) => Promise<void> } {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  async function download(link: () => Promise<string | null>) {
    setBusy(true);
    try {
      const url = await link();
      if (url) await navigateTo(router, url);
    } catch {
      // The client has already shown the network error.
    } finally {
      setBusy(false);
    }
  }
  return { busy, download };
}
