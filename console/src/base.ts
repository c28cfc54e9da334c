/**
 * Where the console is served: the SPA answers every path below it, its files are below `${CONSOLE_BASE}/assets`. The
 * server names the same path (functions/sign-in/site.ts, CONSOLE_PATH); a test holds the two equal, as neither
 * program imports the other.
 */
export const CONSOLE_BASE = '/console';

/** A console path from one relative to the base: `/inbox` → `/console/inbox`, `/` → `/console`. */
export const consolePath = (path: string) => (path === '/' ? CONSOLE_BASE : `${CONSOLE_BASE}${path}`);
