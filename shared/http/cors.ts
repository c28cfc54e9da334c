/**
 * What a CORS preflight of a route with `preflight` answers a page on an allowed origin, beside
 * Access-Control-Allow-Origin: it may POST, with JSON's Content-Type and a retry's Idempotency-Key, and a browser keeps
 * the answer 10 minutes before asking again. The handler sends these and the document states them.
 */
export const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'Content-Type, Idempotency-Key',
  'access-control-max-age': '600',
} as const;
