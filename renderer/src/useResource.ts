import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';

/** Loading / error / data of one API read, with reload; answers of superseded loads are dropped. */
export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
  setData(update: (current: T | undefined) => T | undefined): void;
}

export function useResource<T>(load: () => Promise<T>, deps: DependencyList): Resource<T> {
  const [data, setDataState] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const reload = useCallback(() => {
    const current = ++generation.current;
    setLoading(true);
    loadRef.current().then(
      (value) => {
        if (current !== generation.current) return;
        setDataState(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (current !== generation.current) return;
        setError(failure);
        setLoading(false);
      },
    );
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when to reload
  useEffect(reload, deps);

  const setData = useCallback(
    (update: (current: T | undefined) => T | undefined) => setDataState(update),
    [],
  );
  return { data, error, loading, reload, setData };
}
