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

/**
 * The module, loading it once `wanted` is true; null until it is loaded. The load starts after the
 * frame that paints this render: an effect of a render the router flushes synchronously runs before
 * that paint, and starting a chunk's import there (the preload links it adds, its compile) kept a
 * list's first rows from the screen ~15 ms longer (decision 193).
 */
export function useOnDemand<T>(onDemandModule: OnDemand<T>, wanted: boolean): T | null {
  const loaded = useSyncExternalStore(onDemandModule.subscribe, onDemandModule.current, onDemandModule.current);
  useEffect(() => {
    if (!wanted || loaded) return;
    return afterPaint(() => void onDemandModule.load());
  }, [onDemandModule, wanted, loaded]);
  return loaded;
}

/** Runs `task` once the next frame has been painted (a task queued from that frame's animation callback); answers a cancel. */
function afterPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(task, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
