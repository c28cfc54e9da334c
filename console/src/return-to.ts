import { CONSOLE_BASE } from './base';

/** A path on this origin as `?return=` may name one: exactly one `/` first, no backslash and no control character. */
const SAME_ORIGIN_PATH = /^\/(?![/\\])[^\\\x00-\x1f\x7f]*$/;

/**
 * Where to go after signing in: `?return=` as a same-origin path (`/console/pipeline`, the OAuth consent page's
 * `/oauth/authorize?…`), else Today. Nothing else is taken, not even an absolute URL of this origin: a browser reads
 * `//host` and `/\host` as another host, and a tab or a line break inside a path is dropped, so such a target is
 * refused before it is resolved, and the resolved path is held to the same rule (`/.//host` resolves to `//host`). An
 * open redirect would let anyone's link send a signed-in owner elsewhere.
 */
export function returnTarget(asked: string | null, origin: string = location.origin): string {
  if (!asked || !SAME_ORIGIN_PATH.test(asked)) return CONSOLE_BASE;
  let url: URL;
  try {
    url = new URL(asked, origin);
  } catch {
    return CONSOLE_BASE;
  }
  const target = `${url.pathname}${url.search}${url.hash}`;
  if (url.origin !== new URL(origin).origin || !SAME_ORIGIN_PATH.test(target)) return CONSOLE_BASE;
  // The sign-in screen itself would loop.
  if (url.pathname === `${CONSOLE_BASE}/sign-in`) return CONSOLE_BASE;
  return target;
}

/** Whether the target is a screen of the console, reached without loading the page again. */
export const isConsolePath = (path: string) => path === CONSOLE_BASE || path.startsWith(`${CONSOLE_BASE}/`) || path.startsWith(`${CONSOLE_BASE}?`);
