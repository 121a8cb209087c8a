// Stately inspector for the app's actors, off by default.
//
// Turn it on with `?inspect` in the URL (any value, e.g. http://localhost:5173/me?inspect) or
// persistently with `localStorage.setItem('inspect', '1')` (remove the key to turn it off). The app
// then loads @statelyai/inspect with a dynamic import (its own chunk: nothing of it is in the main
// bundle), opens the inspector window, and every actor created through create-app-actor.ts reports
// to it. `initInspector()` runs once in main.tsx before the first actor is created. This module
// imports nothing of xstate, so the entry (and the login page) does not carry it.
import type { InspectionEvent, Observer } from 'xstate';

export const INSPECT_QUERY_PARAM = 'inspect';
export const INSPECT_STORAGE_KEY = 'inspect';

export type InspectObserver = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

let appInspect: InspectObserver | undefined;

/** Whether the inspector was asked for, by `?inspect` or localStorage 'inspect' = '1'. */
export function isInspectRequested(search: string, readStorage: () => string | null): boolean {
  if (new URLSearchParams(search).has(INSPECT_QUERY_PARAM)) return true;
  try {
    return readStorage() === '1';
  } catch {
    return false;
  }
}

/** Loads and opens the inspector when requested; otherwise does nothing (and loads nothing). */
export async function initInspector(): Promise<void> {
  if (typeof window === 'undefined') return;
  if (!isInspectRequested(window.location.search, () => window.localStorage.getItem(INSPECT_STORAGE_KEY))) return;
  try {
    const { createBrowserInspector } = await import('@statelyai/inspect');
    appInspect = createBrowserInspector().inspect;
  } catch (error) {
    console.warn('Stately inspector could not be started', error);
  }
}

/** For tests and tools: the inspect observer every app actor gets (undefined when off). */
export function setAppInspect(inspect: InspectObserver | undefined): void {
  appInspect = inspect;
}

/** The inspect observer of the app's actors, undefined when the inspector is off. */
export function appInspector(): InspectObserver | undefined {
  return appInspect;
}
