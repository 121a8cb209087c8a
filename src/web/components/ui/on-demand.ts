// A module loaded the first time it is wanted, then rendered synchronously like any import. For the
// page frame's pieces that the login page never shows (the confirm dialog, the phone menu): their
// code, Headless UI's dialog, stays out of the first load (docs/decisions/130). React.lazy would
// suspend on every first render; this renders nothing until the module is there, then at once.
import { useEffect, useSyncExternalStore } from 'react';

export interface OnDemand<T> {
  /** Starts loading (once) and resolves with the module. */
  load(): Promise<T>;
  /** The module once loaded, else null. */
  current(): T | null;
  subscribe(listener: () => void): () => void;
}

export function onDemand<T>(importer: () => Promise<T>): OnDemand<T> {
  let module: T | null = null;
  let loading: Promise<T> | null = null;
  const listeners = new Set<() => void>();
  return {
    load() {
      loading ??= importer().then(
        (loaded) => {
          module = loaded;
          for (const listener of listeners) listener();
          return loaded;
        },
        (error: unknown) => {
          loading = null; // not loaded (offline?): the next want tries again
          throw error;
        },
      );
      return loading;
    },
    current: () => module,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The module, loading it once `wanted` is true; null until it is loaded. */
export function useOnDemand<T>(onDemandModule: OnDemand<T>, wanted: boolean): T | null {
  const loaded = useSyncExternalStore(onDemandModule.subscribe, onDemandModule.current, onDemandModule.current);
  useEffect(() => {
    if (wanted && !loaded) void onDemandModule.load();
  }, [onDemandModule, wanted, loaded]);
  return loaded;
}
