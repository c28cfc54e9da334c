import { CONSOLE_BASE } from './base';
import { store, useStore } from './store';

/** Where the person is: the path below the console's base (`/inbox/inq_1`, `/` for Today), its query and hash. */
export interface Place {
  path: string;
  query: URLSearchParams;
  /** The full URL path, query included, as `?return=` takes it. */
  href: string;
}

function read(): Place {
  const { pathname, search } = location;
  const below = pathname === CONSOLE_BASE ? '/' : pathname.startsWith(`${CONSOLE_BASE}/`) ? pathname.slice(CONSOLE_BASE.length) : pathname;
  return { path: below.replace(/(.)\/+$/, '$1'), query: new URLSearchParams(search), href: `${pathname}${search}` };
}

const place = store<Place>(read());
/** Set by each change of place, so the shell moves focus to the new screen's heading (not on the first load). */
export const moved = store(0);

export const usePlace = () => useStore(place);
export const placeNow = () => place.get();

/**
 * Goes to a same-origin path under the console without loading the page again: `replace` keeps it out of the history
 * (a redirect), `sameScreen` changes only the query of the screen shown (a filter), which keeps the focus where it is.
 */
export function navigate(to: string, { replace = false, sameScreen = false }: { replace?: boolean; sameScreen?: boolean } = {}) {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  place.set(read());
  if (sameScreen) return;
  scrollTo(0, 0);
  moved.set(moved.get() + 1);
}

/** The path's parameters if it matches the pattern (`/inbox/:inquiryId`), else null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [at, part] of want.entries()) {
    const value = have[at]!;
    if (part.startsWith(':')) {
      if (!value) return null;
      params[part.slice(1)] = decodeURIComponent(value);
    } else if (part !== value) return null;
  }
  return params;
}

/**
 * Links to console paths change the screen in place: a plain left click on a same-origin link below the base, but
 * not one to a new tab or window, a download, or an anchor on the same screen (the browser scrolls to it).
 */
export function interceptLinks() {
  addEventListener('popstate', () => place.set(read()));
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest?.('a');
    if (!link || (link.target && link.target !== '_self') || link.hasAttribute('download')) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !(url.pathname === CONSOLE_BASE || url.pathname.startsWith(`${CONSOLE_BASE}/`))) return;
    if (url.pathname === location.pathname && url.search === location.search && url.hash) return;
    event.preventDefault();
    navigate(`${url.pathname}${url.search}${url.hash}`);
  });
}

/** This screen at `path` with some of its query changed (an empty value removes one), in place of the entry shown. */
export function changeQuery(path: string, query: URLSearchParams, changes: Record<string, string>) {
  const next = new URLSearchParams(query);
  for (const [name, value] of Object.entries(changes)) {
    if (value) next.set(name, value);
    else next.delete(name);
  }
  navigate(`${path}${next.size ? `?${next}` : ''}`, { replace: true, sameScreen: true });
}
