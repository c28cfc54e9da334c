import { useEffect, useState } from 'preact/hooks';

/** A value several components read and any code may change: the session, the place, the notices. */
export interface Store<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: () => void): () => void;
}

export function store<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      value = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The store's value, rendering again whenever it changes. */
export function useStore<T>(source: Store<T>): T {
  const [, rendered] = useState(0);
  useEffect(() => source.subscribe(() => rendered((n) => n + 1)), [source]);
  return source.get();
}
