// A small loader for the parts of a page that load, page or reload on their own, outside the route
// loader (a board task's claims, the pending claims, a task's records in a dialog): `key` says what
// to load (a change reloads), `load` how. A failed load leaves the last data (the API client has
// already shown why). `shown`: what to show while the first load runs (what the page showed when it
// was left), so a page returned to does not shrink to its skeletons and grow back under the pointer.
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Remote<T> {
  data: T | undefined;
  loading: boolean;
  reload: () => void;
}

export function useRemote<T>(key: string, load: () => Promise<T>, shown?: T): Remote<T> {
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<{ data: T | undefined; loading: boolean }>({ data: shown, loading: true });

  useEffect(() => {
    let live = true;
    setState((s) => (s.loading ? s : { ...s, loading: true }));
    loadRef.current().then(
      (data) => {
        if (live) setState({ data, loading: false });
      },
      () => {
        if (live) setState((s) => ({ ...s, loading: false }));
      },
    );
    return () => {
      live = false;
    };
  }, [key, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data: state.data, loading: state.loading, reload };
}
