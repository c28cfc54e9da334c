// The console's one door to the API: openapi-fetch over the paths of the API's document (./api-schema.d.ts), so every
// call names a path template, its parameters and body as the document has them, and gets its answer's type from it.
// Same-origin relative URLs with the session cookie, the CSRF token on every write, and every refusal read from the
// error envelope (docs/notes: the console contract).
import createClient, { type Client, type ClientPathsWithMethod, type FetchResponse, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import type { paths } from './api-schema';
import { TAKES_IDEMPOTENCY_KEY } from './api-lists';
import { search } from './url';
import { WriteKeys } from './write-keys';
import { inOwnersWords } from './owners-words';

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
const UNREACHABLE = 'The service could not be reached. Check the connection and try again.';

/** The refusal's body as the envelope it should be: JSON, else none (a proxy's HTML page, an empty body). */
function envelopeOf(body: unknown): Envelope | undefined {
  if (typeof body === 'string') {
    try {
      return body ? envelopeOf(JSON.parse(body)) : undefined;
    } catch {
      return undefined;
    }
  }
  return typeof body === 'object' && body !== null ? body : undefined;
}

function refusal(response: Response, envelope: Envelope | undefined, keyed: boolean): ApiError {
  const error = envelope?.error;
  const code = error?.code;
  // The envelope's message is its first detail's when there are details: each is shown once.
  const details = (error?.details ?? []).map((detail) => detail.message).filter((detail) => detail !== error?.message);
  // A session's scope is everything: the gateway's INSUFFICIENT_SCOPE is the member's role, below the operation's.
  if (code === 'INSUFFICIENT_SCOPE') return new ApiError(response.status, ROLE_FORBIDDEN, code, []);
  const message = error?.message ?? envelope?.message ?? `The service answered ${response.status} ${response.statusText}`.trim();
  return new ApiError(response.status, inOwnersWords({ message, status: response.status, code, retryAfter: response.headers.get('Retry-After'), keyed }), code, details);
}

/**
 * What every call carries and how every answer is read: JSON asked for, the CSRF token on every write, a POST's body
 * `{}` when its operation takes none (as the console has always sent), a refusal thrown as an ApiError (a 401 also
 * ending the session here), and a request that never reached the service as one too, unless it was aborted.
 */
const writeKeys = new WriteKeys();

const door: Middleware = {
  async onRequest({ request, schemaPath }) {
    request.headers.set('Accept', 'application/json');
    if (request.method !== 'GET' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    let sent = request;
    // openapi-fetch names a Content-Type only with a body.
    if (request.method === 'POST' && !request.headers.has('Content-Type')) {
      const headers = new Headers(request.headers);
      headers.set('Content-Type', 'application/json');
      sent = new Request(request, { body: '{}', headers });
    }
    // A write that takes an Idempotency-Key carries one: the same again when the same write is sent after no answer.
    if (TAKES_IDEMPOTENCY_KEY.has(`${sent.method} ${schemaPath}`) && !sent.headers.has('Idempotency-Key')) {
      // Read from a copy and sent as text, as the browser sends a body it was given whole (not a stream).
      const body = await sent.clone().text();
      const headers = new Headers(sent.headers);
      headers.set('Idempotency-Key', writeKeys.keyFor(`${sent.method} ${sent.url} ${body}`));
      sent = new Request(sent, { body, headers });
    }
    return sent === request ? undefined : sent;
  },
  async onResponse({ request, response }) {
    const key = request.headers.get('Idempotency-Key');
    if (key) writeKeys.answered(key, response.status);
    if (response.ok) return undefined;
    const envelope = envelopeOf(await response.text());
    if (response.status === 401) unauthorized();
    throw refusal(response, envelope, key !== null);
  },
  onError({ request }) {
    // An aborted read is no failure to show: its own error goes on (undefined keeps it).
    if (request.signal.aborted) return undefined;
    return new ApiError(0, UNREACHABLE, 'NETWORK', []);
  },
};

type Method = 'get' | 'post' | 'patch' | 'delete';
/** The document's paths that take the method. */
type PathOf<M extends Method> = ClientPathsWithMethod<Client<paths>, M>;
type Operation<P extends keyof paths, M extends Method> = Extract<paths[P][M], Record<string, unknown>>;
/** A call's options as its operation takes them: its parameters (path, query, header), its body, a signal. */
type InitOf<P extends keyof paths, M extends Method> = MaybeOptionalInit<paths[P], M>;
type Args<Init> = undefined extends Init ? [init?: Init] : [init: Init];
/** A method of the door: any path that takes it, with that path's options, answering that operation's data. */
type Call<M extends Method> = <P extends PathOf<M>>(path: P, ...init: Args<InitOf<P, M>>) => Promise<FetchResponse<Operation<P, M>, InitOf<P, M>, `${string}/${string}`>>;

/**
 * openapi-fetch's client, its methods declared with a call's options fixed by its path rather than inferred from the
 * call: openapi-fetch infers them, so a field the operation does not have (a misspelt optional body field or query
 * parameter) compiles there (openapi-ts/openapi-typescript#1769); here it does not. The functions are openapi-fetch's.
 */
interface Door {
  GET: Call<'get'>;
  POST: Call<'post'>;
  PATCH: Call<'patch'>;
  DELETE: Call<'delete'>;
  use(...middleware: Middleware[]): void;
}

/**
 * The client: `api.GET('/v1/leads/{leadId}', { params: { path: { leadId } }, signal })`, and POST, PATCH, DELETE alike.
 * Wrap a call in `answer()` for its data. Every write that takes an Idempotency-Key gets one from the door (./write-keys.ts).
 */
export const api = createClient<paths>({
  baseUrl: '',
  credentials: 'same-origin',
  // The query string as the console has always written it: each value given ('' too left out), URLSearchParams' encoding.
  querySerializer: search,
  // The page's fetch as it is at each call, not as it was when this module loaded.
  fetch: (request) => fetch(request),
}) as Door;
api.use(door);

/** What openapi-fetch answers: the success's data, or (never here: the door throws every refusal) the error's body. */
interface Answered<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The data a call answered, its type the operation's success answer; a refusal is thrown as an ApiError. */
export async function answer<Data>(call: Promise<Answered<Data>>): Promise<Data> {
  const result = await call;
  if ('error' in result) throw refusal(result.response, envelopeOf(result.error), false);
  // Every operation the console calls answers JSON: nothing is no answer it can read.
  if (result.data === undefined) throw new ApiError(result.response.status, 'The service answered nothing to read.', undefined, []);
  return result.data;
}

/**
 * The items of a list, following `nextCursor` until `enough` says to stop or `max` items are read: for counts the
 * list's filters cannot give (each use says which filter the API lacks). `read` asks for a page through the door, of
 * `limit` items from `cursor` (none for the first): `(limit, cursor) => api.GET('/v1/automations', { params: { query:
 * { limit, cursor } }, signal })`, the list's filters beside them; `key` names the page's items (`automations`). A list
 * that takes no `limit` or `cursor`, answers no `nextCursor`, or has no such items does not compile.
 */
export async function listUntil<K extends string, Page extends { nextCursor: string | null } & { [key in K]: unknown[] }>(
  read: (limit: number, cursor: string | undefined) => Promise<Answered<Page>>,
  key: K,
  { max = 300, enough = () => false }: { max?: number; enough?: (page: Page[K]) => boolean } = {},
): Promise<{ items: Page[K][number][]; complete: boolean }> {
  const items: Page[K][number][] = [];
  let cursor: string | null = null;
  do {
    const page: Page = await answer(read(100, cursor ?? undefined));
    items.push(...page[key]);
    cursor = page.nextCursor;
    if (enough(page[key])) return { items, complete: true };
  } while (cursor && items.length < max);
  return { items, complete: cursor === null };
}
