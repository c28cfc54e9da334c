import { CONSOLE_BASE } from './base';

/**
 * Where to go after signing in: `?return=` as a same-origin path (`/console/pipeline`) or an absolute URL on this
 * origin (the OAuth consent page sends people here and back), else Today. Any other origin, scheme or a
 * protocol-relative `//host` is refused: an open redirect would let anyone's link send a signed-in owner elsewhere.
 */
export function returnTarget(asked: string | null): string {
  if (!asked) return CONSOLE_BASE;
  let url: URL;
  try {
    url = new URL(asked, location.origin);
  } catch {
    return CONSOLE_BASE;
  }
  if (url.origin !== location.origin || !/^https?:$/.test(url.protocol)) return CONSOLE_BASE;
  // The sign-in screen itself would loop.
  if (url.pathname === `${CONSOLE_BASE}/sign-in`) return CONSOLE_BASE;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Whether the target is a screen of the console, reached without loading the page again. */
export const isConsolePath = (path: string) => path === CONSOLE_BASE || path.startsWith(`${CONSOLE_BASE}/`) || path.startsWith(`${CONSOLE_BASE}?`);
