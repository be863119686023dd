import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';
import { useFreshness } from './live/freshness.js';
import { type DataUpdate, LoadReplay } from './loadReplay.js';

/**
 * Loading / error / data of one API read, with reload; answers of superseded loads are dropped,
 * and changes made with `setData` while a load is in flight are applied to its answer too. It
 * reads again when the live stream is back after an outage (see `freshness.ts`).
 */
export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
  setData(update: DataUpdate<T>): void;
}

export function useResource<T>(load: () => Promise<T>, deps: DependencyList): Resource<T> {
  const [data, setDataState] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(true);
  const loads = useRef(new LoadReplay<T>());
  const loadRef = useRef(load);
  loadRef.current = load;

  const reload = useCallback(() => {
    const token = loads.current.start();
    setLoading(true);
    loadRef.current().then(
      (value) => {
        const answer = loads.current.finish(token, value);
        if (answer.stale) return;
        setDataState(answer.data);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!loads.current.fail(token)) return;
        setError(failure);
        setLoading(false);
      },
    );
  }, []);

  const freshness = useFreshness();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when to reload
  useEffect(reload, [...deps, freshness]);

  const setData = useCallback((update: DataUpdate<T>) => {
    loads.current.changed(update);
    setDataState(update);
  }, []);
  return { data, error, loading, reload, setData };
}
