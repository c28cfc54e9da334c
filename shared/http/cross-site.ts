import { ApiError } from '../errors';
import { publicBaseUrl } from './base-url';

export const CROSS_SITE_REQUEST = 'CROSS_SITE_REQUEST';

/** What the browser says of where a request comes from (Fetch Metadata) that a page of the API's own origin can send. */
const OWN_SITE_FETCHES = new Set(['same-origin', 'none']);

/**
 * Refuses a request a browser made from a page of another origin (403 CROSS_SITE_REQUEST): one whose `Sec-Fetch-Site`
 * is `cross-site` or `same-site` (a sibling subdomain is another origin), or whose `Origin` is not the API's own
 * public origin. The origin is `publicBaseUrl`'s: PUBLIC_BASE_URL deployed, never the request's Host; only the local
 * server without it follows the Host asked, as every URL it names does. `Origin: null` passes only with `Sec-Fetch-Site:
 * same-origin`: a form posted by a page whose Referrer-Policy is `no-referrer` sends it so, while a sandboxed or
 * redirected request is cross-site to the browser. A request with neither header is no browser's page (curl, another
 * server), which holds no cookie of a person's and needs no such check. Headers are lower-cased, as a route's
 * `admission` is given them.
 */
export function refuseCrossSiteRequest(headers: Record<string, string>): void {
  const site = headers['sec-fetch-site']?.trim().toLowerCase();
  const origin = headers.origin;
  if (site !== undefined && !OWN_SITE_FETCHES.has(site)) throw crossSite(`a page on another site (Sec-Fetch-Site: ${site.slice(0, 20)})`);
  if (origin === undefined) return;
  if (origin === 'null' && site === 'same-origin') return;
  // Compared whole, as browsers serialize an origin: a prefix, a suffix or another port is another origin.
  if (origin !== new URL(publicBaseUrl(headers)).origin) throw crossSite(`Origin ${JSON.stringify(origin.slice(0, 100))}`);
}

const crossSite = (what: string) => new ApiError(403, `This request may only come from the API's own pages, not from ${what}`, CROSS_SITE_REQUEST);
