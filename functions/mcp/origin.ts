import { ApiError } from '#shared/errors';

/** Hosts of the machine a browser runs on: a page served from one is the developer's own. */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** An origin exactly as a browser sends it (`http://localhost:6274`), whose host is the browser's own machine. */
function isLoopbackOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin && LOOPBACK_HOST.test(url.hostname);
}

export const ORIGIN_NOT_ALLOWED = 'ORIGIN_NOT_ALLOWED';

/**
 * MCP's Streamable HTTP transport: "Servers MUST validate the Origin header on all incoming connections to prevent DNS
 * rebinding attacks. If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden."
 * A client that sends no Origin is not a browser page, and a page on the browser's own machine is its developer's
 * (an MCP inspector). A rebinding page keeps its own site as its origin even once that name resolves to this server, so
 * every other origin is refused; `/mcp` answers no CORS, so no page elsewhere could read an answer anyway.
 */
export function refuseForeignOrigin(headers: Record<string, string>): void {
  const origin = headers.origin;
  if (origin === undefined || isLoopbackOrigin(origin)) return;
  throw new ApiError(403, `Origin ${JSON.stringify(origin)} may not call /mcp: only clients that send no Origin, or pages on localhost`, ORIGIN_NOT_ALLOWED);
}
