// The login page's entry (login.html; decision 131): the app's login form with the form kit, the
// API client and the words it shows, drawn by Preact through its React compat layer (the login build
// only: vite.config.ts, decision 171). Not the router, xstate or the session machine: the page's JS
// stays under the 60 kB a cold load may fetch (scripts/bundle-size.ts). Once loaded, it prefetches
// the app's files a login lands on. A token already stored changes nothing here: the form shows,
// and a login replaces the token, as it did in the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createAppApiClient } from '../app/api';
import { zhApp as zh } from '../i18n/zh-app';
import { formatDocumentTitle } from '../shell/page-frame';
import { LoginRoot } from './login-root';
import { prefetchAppAfterLoad } from './prefetch-app';
import '../styles.css';

document.title = formatDocumentTitle(zh.titles.login);
const container = document.getElementById('root');
if (!container) throw new Error('#root missing from login.html');
createRoot(container).render(
  <StrictMode>
    <LoginRoot api={createAppApiClient()} search={window.location.search} />
  </StrictMode>,
);
prefetchAppAfterLoad();
