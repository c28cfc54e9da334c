// The console's URLs' parts: the query strings and path segments of links to its screens, and the query string of
// every API call (the door, ./api.ts, serializes its calls' query parameters with `search`).

/** The values given (undefined, null and '' left out) as a query string, `?` not included: URLSearchParams' encoding. */
export function search(params: Record<string, unknown>): string {
  const found = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') found.set(name, String(value));
  return found.toString();
}

/** A query string of the values given, `?` included, or '' when none is: for links to console screens. */
export function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const text = search(params);
  return text ? `?${text}` : '';
}

/** A path segment of a console link from an id the API gave: ids are opaque, so never trusted to be URL-safe. */
export const segment = (id: string | number) => encodeURIComponent(String(id));
