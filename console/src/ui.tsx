import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { announce, problemOf, ProblemText, showProblem } from './notices';

/** A screen: its one h1 (focused when the screen changes, so a screen reader starts there) and the tab's title. */
export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Owners’ console`;
  }, [title]);
  return (
    <>
      <h1 id="page-title" tabIndex={-1}>
        {title}
      </h1>
      {children}
    </>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
  /** Replaces the data after a write answered it, without reading again. */
  set: (data: T) => void;
}

/** Data a screen reads when it appears and whenever `deps` change; a newer read aborts the older one. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  // Read again (reload): the data shown stays until the new answer; other deps: another record, so none is shown.
  const keep = useRef(false);
  useEffect(() => {
    const controller = new AbortController();
    const kept = keep.current;
    keep.current = false;
    setState((before) => ({ data: kept ? before.data : undefined, loading: true }));
    load(controller.signal).then(
      (data) => controller.signal.aborted || setState({ data, loading: false }),
      (error: unknown) => controller.signal.aborted || setState({ error, loading: false }),
    );
    return () => controller.abort();
    // The caller names what the read depends on: `load` is a new function at each render.
  }, [...deps, round]);
  const reload = () => {
    keep.current = true;
    setRound((n) => n + 1);
  };
  return { data: state.data, error: state.error, loading: state.loading, reload, set: (data) => setState({ data, loading: false }) };
}

/**
 * A write the person started: `busy` while it runs (its button disabled), then `done` announced, or the refusal shown
 * in the alert region. Answers whether it succeeded.
 */
export function useAction(): [boolean, (work: () => Promise<unknown>, done?: string) => Promise<boolean>] {
  const [busy, setBusy] = useState(false);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const run = async (work: () => Promise<unknown>, done?: string) => {
    setBusy(true);
    try {
      await work();
      if (done) announce(done);
      return true;
    } catch (error) {
      showProblem(error);
      return false;
    } finally {
      if (mounted.current) setBusy(false);
    }
  };
  return [busy, run];
}

/** What a section shows while its read runs, or when it failed (its own alert, beside the screen's). */
/** A select's options: each value of a list, shown by its label. */
export function Options<V extends string>({ values, labels }: { values: readonly V[]; labels: Readonly<Record<V, string>> }) {
  return (
    <>
      {values.map((value) => (
        <option key={value} value={value}>
          {labels[value]}
        </option>
      ))}
    </>
  );
}

export function Loading<T>({ loaded, children, what }: { loaded: Loaded<T>; what: string; children: (data: T) => ComponentChildren }) {
  if (loaded.data !== undefined) return <>{children(loaded.data)}</>;
  if (loaded.error !== undefined) {
    return (
      <div role="alert" class="problem inline">
        <ProblemText problem={problemOf(loaded.error)} />
        <button type="button" onClick={loaded.reload}>
          Try again
        </button>
      </div>
    );
  }
  return <p class="muted">Loading {what}…</p>;
}

/** Long work's progress: a labelled bar, and its words for screen readers as they change. */
export function Progress({ label, done, total, id }: { label: string; done: number; total: number; id: string }) {
  return (
    <div class="progress">
      <label for={id}>{label}</label>
      <progress id={id} max={Math.max(total, 1)} value={done}>
        {done} of {total}
      </progress>
      <span aria-live="polite">
        {done} of {total}
      </span>
    </div>
  );
}

/** Items, a button to load the next page while there is one, and the count. */
export function More({ shown, total, onMore, busy }: { shown: number; total?: number; onMore?: () => void; busy?: boolean }) {
  return (
    <p class="more">
      <span class="muted">
        Showing {shown}
        {total !== undefined ? ` of ${total}` : ''}
      </span>
      {onMore && (
        <button type="button" onClick={onMore} disabled={busy}>
          Load more
        </button>
      )}
    </p>
  );
}

/** A page of a list as a screen reads it: its items, the list's total, and where the next page starts. */
export interface ListPage<T> {
  items: T[];
  totalCount: number;
  nextCursor: string | null;
}

/**
 * A list read a page at a time: the first page whenever `deps` change, and each next one after the cursor the page
 * before left, appended. `loadMore` is absent after the last page; a refusal is shown in the alert region.
 */
export function usePages<T>(read: (cursor: string | null, signal?: AbortSignal) => Promise<ListPage<T>>, deps: unknown[]) {
  const [extra, setExtra] = useState<{ items: T[]; cursor: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const first = useLoad((signal) => {
    setExtra(null);
    return read(null, signal);
  }, deps);
  const items = [...(first.data?.items ?? []), ...(extra?.items ?? [])];
  const cursor = extra ? extra.cursor : (first.data?.nextCursor ?? null);
  const loadMore = async () => {
    setBusy(true);
    try {
      const page = await read(cursor);
      setExtra({ items: [...(extra?.items ?? []), ...page.items], cursor: page.nextCursor });
    } catch (error) {
      showProblem(error);
    } finally {
      setBusy(false);
    }
  };
  return { first, items, total: first.data?.totalCount, busy, loadMore: cursor ? loadMore : undefined };
}
