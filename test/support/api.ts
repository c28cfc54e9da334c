import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { UsagePlanName } from '#shared/auth/usage-plans';
import { ManualClock, setClock } from '#shared/clock';
import { durationMs } from '../../functions/automations/steps/durations';
import { createOrganizationWithKey, type CreatedOrganization } from '../../infra/demo/organization';
import { startLocalServer, type LocalServer } from '../../infra/local/server';
import { assertMatchesDocument, readBody } from './contract';
import { attributingCalls, takeGrantViolations } from './dynamo-calls';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is, for malformed bodies. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export type Client = ReturnType<typeof clientFor>;

function clientFor(baseUrl: () => string, apiKey?: string) {
  const request = async <T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...options.headers };
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const url = new URL(baseUrl() + path);
    const response = await fetch(url, { method, headers, body });
    const parsed = await readBody(response);
    // Every response any test receives is held to the OpenAPI document; a mismatch fails the test.
    assertMatchesDocument({ method, path: url.pathname, status: response.status, contentType: response.headers.get('content-type'), body: parsed });
    return { status: response.status, headers: response.headers, body: parsed as T };
  };
  return {
    request,
    get: <T = any>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
    post: <T = any>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { body, ...options }),
    put: <T = any>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { body, ...options }),
    patch: <T = any>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { body, ...options }),
    delete: <T = any>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
  };
}

/**
 * The README's retry contract, as a careful client follows it: a write sent again with its Idempotency-Key after 503
 * (the store did not answer in time; the outcome unknown), 409 `CONFLICT` (another request changed the same record at
 * the same time; nothing was written) or 409 `IDEMPOTENCY_IN_PROGRESS` (the first attempt still runs). Any other answer
 * is the outcome. A burst of concurrent writes to one record then asserts outcomes, not how many waited their turn
 * within one request on this machine.
 */
export async function sentAsAClientRetries<T = any>(send: () => Promise<ApiResponse<T>>, attempts = 30): Promise<ApiResponse<T>> {
  const retryable = (res: ApiResponse<any>) => res.status === 503 || (res.status === 409 && ['CONFLICT', 'IDEMPOTENCY_IN_PROGRESS'].includes(res.body?.error?.code));
  let res = await send();
  for (let attempt = 1; attempt < attempts && retryable(res); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2_000, 100 * 2 ** attempt)));
    res = await send();
  }
  return res;
}

export interface TestApi {
  readonly url: string;
  /** With `viewerEdge`, the API's own address behind the edge (as the execute-api URL is deployed). */
  readonly originUrl: string | undefined;
  /** A client with no Authorization header. */
  anonymous: Client;
  as: (apiKey: string) => Client;
  /** A new organization with its own API key (and the demo data set with `demo`), on the default usage plan unless told. */
  organization: (options?: { demo?: boolean; usagePlan?: UsagePlanName }) => Promise<CreatedOrganization & { client: Client }>;
  /**
   * One organization with the demo data, made on first use and shared by the file's tests that only read it (the
   * demo data set is most of a second of writes). A test that writes makes its own with `organization({ demo: true })`.
   */
  demoOrganization: () => Promise<CreatedOrganization & { client: Client }>;
  /** Resolves once the stream consumer has handled every change committed so far (events recorded, webhooks queued). */
  eventsCaughtUp: () => Promise<void>;
  /** Resolves once no in-process queue has a job in flight or due (a sign-in code made and texted; a delivery waiting for a later time is not due). */
  queuesIdle: () => Promise<void>;
  /**
   * With `clock: 'manual'`: lets what is under way settle, then moves the clock the code reads forward by an ISO 8601
   * duration (`PT2H`, `P1D`) or milliseconds, firing each timer due on the way in time order, and after each waits until
   * what it started has settled: no automation step in flight, no schedule past due, and the stream consumer caught up.
   */
  advanceTime: (duration: string | number) => Promise<void>;
  /** With `clock: 'manual'`: that clock, started at the real time the server started. */
  readonly clock: ManualClock;
}

/**
 * How soon the stream is read again after a read, in the tests (npm start's is 100 ms): `eventsCaughtUp` and every
 * timer `advanceTime` fires wait for a read begun after them, then an idle one, so the gap was most of the time of the
 * files that move the clock (automation-runs: 37 s with 100 ms, 23 s with 20 ms, alone on a loaded machine).
 */
const STREAM_POLL_GAP_MS = 20;

/** A duration as `advanceTime` takes it, in milliseconds. */
function millisecondsOf(duration: string | number): number {
  const ms = typeof duration === 'number' ? duration : durationMs(duration);
  if (ms === undefined || !(ms >= 0)) throw new Error(`advanceTime takes an ISO 8601 duration (PT2H, P1D) or milliseconds, not ${String(duration)}`);
  return ms;
}

/**
 * The manual clock of a test API, in place from `start` (at the real time, so what the code reads and what the tests'
 * dates say agree) to `stop`, and time moved on it, settling through the server after each timer fired: a step's
 * effect writes what the stream consumer reads, and the stream consumer starts and stops runs, so it is settled when
 * the engine is idle right after the stream has caught up.
 */
function manualTime(server: () => LocalServer, events: boolean) {
  let manual: ManualClock | undefined;
  let restore = () => {};
  const clock = () => {
    if (!manual) throw new Error("advanceTime and clock need useTestApi({ clock: 'manual' })");
    return manual;
  };
  const settle = async () => {
    for (;;) {
      await server().idle();
      if (events) await server().stream.caughtUp();
      if (!server().busy()) return;
    }
  };
  return {
    start: () => void (restore = setClock((manual = new ManualClock(Date.now())))),
    stop: () => restore(),
    clock,
    // What is under way now (a request's queued step) finishes now, before the clock moves: a step claimed at this
    // instant must not see its lease run out under it.
    advance: async (duration: string | number) => {
      const ms = millisecondsOf(duration);
      await settle();
      await clock().advance(ms, settle);
    },
  };
}

/**
 * The local API on a free port, against this file's own table in DynamoDB Local; with `events`, the stream
 * consumer too (events recorded, webhooks delivered), as `npm start` runs it; with `authorizerCacheTtlMs`, the API key
 * authorizer's answers reused per Authorization header as API Gateway's cache does (0, asking every time, otherwise);
 * with `asDeployed`, the functions find the API by PUBLIC_BASE_URL alone, as in Lambda (startLocalServer).
 * Registers its own beforeAll/afterAll, and after each test checks that every request stayed within its route's DynamoDB grant.
 */
export function useTestApi({
  events = false,
  scheduleEveryMs,
  authorizerCacheTtlMs,
  asDeployed,
  viewerEdge,
  clock: clockKind,
}: { events?: boolean; scheduleEveryMs?: number; authorizerCacheTtlMs?: number; asDeployed?: boolean; viewerEdge?: boolean; clock?: 'manual' } = {}): TestApi {
  let local: LocalServer | undefined;
  let url = '';
  const time = manualTime(() => local!, events);
  beforeAll(async () => {
    if (clockKind === 'manual') time.start();
    local = await startLocalServer(0, { events, scheduleEveryMs, authorizerCacheTtlMs, asDeployed, viewerEdge, streamPollGapMs: STREAM_POLL_GAP_MS, ...attributingCalls });
    url = local.url;
  });
  afterEach(() => {
    expect(takeGrantViolations(), "every DynamoDB action a request used is granted by its route's row").toEqual([]);
  });
  afterAll(async () => {
    await local?.close();
    time.stop();
  });
  const as = (apiKey: string) => clientFor(() => url, apiKey);
  let created = 0;
  let demoOrganization: Promise<CreatedOrganization & { client: Client }> | undefined;
  const organization: TestApi['organization'] = async ({ demo = false, usagePlan } = {}) => {
    const made = await createOrganizationWithKey(`Test organization ${++created}`, { demo, usagePlan });
    return { ...made, client: as(made.apiKey) };
  };
  return {
    get url() {
      return url;
    },
    get originUrl() {
      return local?.originUrl;
    },
    anonymous: clientFor(() => url),
    eventsCaughtUp: () => local!.stream.caughtUp(),
    queuesIdle: () => local!.idle(),
    advanceTime: time.advance,
    get clock() {
      return time.clock();
    },
    as,
    organization,
    demoOrganization: () =>
      (demoOrganization ??= organization({ demo: true }).catch((error: unknown) => {
        // A failed attempt is not kept: the next test tries again and reports its own failure.
        demoOrganization = undefined;
        throw error;
      })),
  };
}
