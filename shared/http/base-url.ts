/**
 * Where the API is, for the URLs its answers name (an inbound URL, the document's server) and for the requests the
 * MCP server makes of it. A caller chooses the Host header: a tool call sent there would carry the caller's key to,
 * and bring back the answer of, whatever it names (a service on the machine, the metadata address). So deployed it is
 * PUBLIC_BASE_URL, which the stack sets on every route's function. Under the local server (`npm start`, the tests) tool
 * calls go to the address it is bound to, and named URLs are PUBLIC_BASE_URL if set, else the Host the request came
 * to (the developer's own machine, perhaps behind a tunnel).
 */
export const BASE_URL_VARIABLE = 'PUBLIC_BASE_URL';

let configured: string | undefined;
/** The local servers listening in this process, newest last (tests run several); never set in Lambda. */
const localAddresses: string[] = [];

/**
 * The local server, once bound: tool calls go to it, and the URLs answers name may follow the request's Host. Returns
 * the release its close calls, so a server closed before another goes on serving is no longer called.
 */
export function serveLocallyAt(address: string): () => void {
  localAddresses.push(address);
  return () => {
    const index = localAddresses.lastIndexOf(address);
    if (index >= 0) localAddresses.splice(index, 1);
  };
}

/** The newest local server still listening, if any. */
const localAddress = (): string | undefined => localAddresses.at(-1);

/** A value of PUBLIC_BASE_URL as the API uses it (no trailing slash), or an error naming the setting. */
export function checkedBaseUrl(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new Error(`${BASE_URL_VARIABLE} must be the API's http(s) URL up to its stage, with no query (got "${value}")`);
  }
  return url.href.replace(/\/+$/, '');
}

/** PUBLIC_BASE_URL, read on first use (so a function that names no URL needs none). */
function configuredBaseUrl(): string | undefined {
  if (configured !== undefined) return configured;
  const value = process.env[BASE_URL_VARIABLE];
  return value ? (configured = checkedBaseUrl(value)) : undefined;
}

const missing = (): never => {
  throw new Error(`Missing required environment variable ${BASE_URL_VARIABLE} (the API's URL up to its stage, e.g. https://api.example.com)`);
};

/** The base URL the MCP server calls the API at: the local server itself, else PUBLIC_BASE_URL. */
export const apiBaseUrl = (): string => localAddress() ?? configuredBaseUrl() ?? missing();

/**
 * The base URL an answer names: PUBLIC_BASE_URL; under the local server without it, the scheme (X-Forwarded-Proto)
 * and Host the request came to, which the local gateway answers at its root.
 */
export function publicBaseUrl(headers: Record<string, string>): string {
  const base = configuredBaseUrl();
  if (base) return base;
  const local = localAddress();
  if (local === undefined) return missing();
  return `${headers['x-forwarded-proto'] ?? 'http'}://${headers.host ?? new URL(local).host}`;
}
