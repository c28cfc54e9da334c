// The console's one way to the API: same-origin relative URLs with the session cookie, the CSRF token on every write,
// and every refusal read from the error envelope (docs/notes: the console contract).

/** A refused or failed call: the envelope's message and each of its details' messages, as the alert region shows them. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly details: string[],
  ) {
    super(message);
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallOptions {
  body?: unknown;
  /** Makes a retried write safe: the API answers a repeated key with the first answer. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

interface Envelope {
  message?: string;
  error?: { status?: number; message?: string; code?: string; details?: { path?: string; message: string }[] };
}

/** Kept in memory only: the cookie is HttpOnly, and the token is what proves a write comes from this page. */
let csrfToken: string | null = null;
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

/** What to do when a call answers 401: the session ended, so the sign-in screen. */
let unauthorized: () => void = () => {};
export const onUnauthorized = (handler: () => void) => {
  unauthorized = handler;
};

const ROLE_FORBIDDEN = 'Your role may not do this.';

function refusal(response: Response, envelope: Envelope | undefined): ApiError {
  const error = envelope?.error;
  const code = error?.code;
  const details = (error?.details ?? []).map((detail) => detail.message);
  // A session's scope is everything: the gateway's INSUFFICIENT_SCOPE is the member's role, below the operation's.
  if (code === 'INSUFFICIENT_SCOPE') return new ApiError(response.status, ROLE_FORBIDDEN, code, []);
  let message = error?.message ?? envelope?.message ?? `The service answered ${response.status} ${response.statusText}`.trim();
  const retryAfter = response.headers.get('Retry-After');
  if (response.status === 429 && retryAfter && /^\d+$/.test(retryAfter)) message = `${message} Try again in ${retryAfter} seconds.`;
  return new ApiError(response.status, message, code, details);
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export async function call<T>(method: Method, path: string, { body, idempotencyKey, signal }: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin', signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, 'The service could not be reached. Check the connection and try again.', 'NETWORK', []);
  }
  const text = await response.text();
  const answer = text ? parsed(text) : undefined;
  if (response.ok) return answer as T;
  if (response.status === 401) unauthorized();
  throw refusal(response, answer as Envelope | undefined);
}

export const get = <T>(path: string, signal?: AbortSignal) => call<T>('GET', path, { signal });
export const post = <T>(path: string, body: unknown = {}, idempotencyKey?: string) => call<T>('POST', path, { body, idempotencyKey });
export const patch = <T>(path: string, body: unknown) => call<T>('PATCH', path, { body });
export const remove = <T>(path: string) => call<T>('DELETE', path);

/** A query string of the values given, `?` included, or '' when none is. */
export function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A path segment from an id the API gave: ids are opaque, so never trusted to be URL-safe. */
export const segment = (id: string | number) => encodeURIComponent(String(id));

/**
 * The items of a list, following `nextCursor` until `enough` says to stop or `max` items are read: for counts the
 * list's filters cannot give (each use says which filter the API lacks).
 */
export async function listUntil<T>(
  path: string,
  key: string,
  { max = 300, enough = () => false, signal }: { max?: number; enough?: (page: T[]) => boolean; signal?: AbortSignal } = {},
): Promise<{ items: T[]; complete: boolean }> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const next = `${path}${path.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page: Record<string, unknown> & { nextCursor: string | null } = await get(next, signal);
    const pageItems = (page[key] ?? []) as T[];
    items.push(...pageItems);
    cursor = page.nextCursor;
    if (enough(pageItems)) return { items, complete: true };
  } while (cursor && items.length < max);
  return { items, complete: cursor === null };
}

/** A fresh Idempotency-Key (getRandomValues, which unlike randomUUID needs no secure context). */
export const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
