// The web app's API client: src/api's one client, handed what it needs from the web (src/api
// imports nothing from here): the session token from the token store, error messages as red toasts,
// the session signals onto `sessionSignals` (main.tsx forwards them to the session actor) and the
// catalog's words for a call that got no answer.
import { createApiClient, sessionSignals, type ApiClient } from '../../api/client';
import { toast } from '../components/ui/toast';
import { zhApp as zh } from '../i18n/zh-app';
import { getTokenStore } from '../session/token-store';

export function createAppApiClient(): ApiClient {
  return createApiClient({
    readToken: () => getTokenStore().read(),
    notifyError: (message) => toast.error(message),
    onSessionSignal: (signal) => sessionSignals.emit(signal),
    messages: { networkError: zh.common.networkError },
  });
}
