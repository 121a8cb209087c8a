import type { JSX } from 'react';
import { version } from '../../../package.json';
import { zhApp as zh } from '../i18n/zh-app';

export const APP_VERSION: string = version;

export function Footer(): JSX.Element {
  return (
    <footer className="shrink-0 border-t border-slate-200 bg-white px-6 py-3 text-center text-xs text-slate-500">
      {zh.app.name} · {zh.app.version(APP_VERSION)}
    </footer>
  );
}
