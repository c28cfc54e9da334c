import { CONSOLE_PATH } from '../../site';

/** Where the console is served (functions/console/site.ts): the SPA answers every path below it, its files are below `${CONSOLE_BASE}/assets`. */
export const CONSOLE_BASE = CONSOLE_PATH;

/** A console path from one relative to the base: `/inbox` → `/console/inbox`, `/` → `/console`. */
export const consolePath = (path: string) => (path === '/' ? CONSOLE_BASE : `${CONSOLE_BASE}${path}`);
