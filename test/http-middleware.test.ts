import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changedMeanwhile, ConflictError, NotFoundError } from '#shared/errors';
import { apiHandler } from '#shared/http/api-handler';
import { defineRoute } from '#shared/routes/route';

const route = defineRoute({
  operationId: 'probe',
  method: 'POST',
  path: '/v1/probe/{id}',
  summary: 'A route for testing the middleware',
  description: 'Echoes whether the body and path arrived.',
  tag: 'Reference',
  dynamodb: [],
  status: 201,
  request: { path: v.object({ id: v.string() }), body: v.strictObject({ n: v.number() }) },
  response: v.object({ ok: v.boolean() }),
  errors: [400, 404, 409],
});

function event(body: string | null, organizationId: string | null = 'org_1', { id = '7', requestId = 'req-123' } = {}) {
  return {
    httpMethod: 'POST',
    path: `/v1/probe/${id}`,
    headers: { 'Content-Type': 'application/json' },
    pathParameters: { id },
    queryStringParameters: null,
    body,
    requestContext: { requestId, authorizer: organizationId ? { organizationId } : null },
  } as never;
}
const context = { awsRequestId: 'lambda-456', functionName: 'probe-function' } as never;

/** The Powertools logger writes through console in the tests (POWERTOOLS_DEV): every line it wrote, parsed. */
function captureLog() {
  const calls: unknown[][] = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, method).mockImplementation((...args) => void calls.push(args));
  return { lines: () => calls.map(([line]) => JSON.parse(line as string) as Record<string, any>) };
}

afterEach(() => vi.restoreAllMocks());

describe('the handler middleware', () => {
  it('answers the route status with the JSON body, and logs one structured line with the request id', async () => {
    const log = captureLog();
    const handler = apiHandler(route, async ({ body, path, organizationId }) => ({ ok: body.n === 1 && path.id === '7' && organizationId === 'org_1' }));
    const response = await handler(event('{"n":1}'), context);
    expect(response).toMatchObject({ statusCode: 201, body: '{"ok":true}' });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(log.lines()).toHaveLength(1);
    expect(log.lines()[0]).toMatchObject({
      level: 'INFO',
      message: 'request',
      service: 'sales-pipeline',
      operationId: 'probe',
      requestId: 'req-123',
      function_request_id: 'lambda-456',
      function_name: 'probe-function',
      cold_start: expect.any(Boolean),
      organizationId: 'org_1',
      status: 201,
    });
  });

  it.each([
    [new NotFoundError('Thing not found'), 404, 'NOT_FOUND'],
    [new ConflictError('Name taken'), 409, 'CONFLICT'],
  ])('maps %s to its status and the envelope', async (error, status, code) => {
    captureLog();
    const response = await apiHandler(route, async () => {
      throw error;
    })(event('{"n":1}'), context);
    expect(response.statusCode).toBe(status);
    expect(JSON.parse(response.body)).toEqual({ success: false, message: error.message, error: { status, message: error.message, code } });
  });

  it('answers 500 without internals for anything unexpected, and logs the error', async () => {
    const log = captureLog();
    const response = await apiHandler(route, async () => {
      throw new Error('connection string postgres://secret');
    })(event('{"n":1}'), context);
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({
      success: false,
      message: 'Internal server error',
      error: { status: 500, message: 'Internal server error', code: 'INTERNAL_ERROR' },
    });
    expect(response.body).not.toContain('secret');
    expect(log.lines()[0]).toMatchObject({ level: 'ERROR', status: 500, error: { message: 'connection string postgres://secret' } });
  });

  it('answers 500 when the authorizer context has no organization, never running the handler', async () => {
    captureLog();
    const handle = vi.fn(async () => ({ ok: true }));
    const response = await apiHandler(route, handle)(event('{"n":1}', null), context);
    expect(response.statusCode).toBe(500);
    expect(handle).not.toHaveBeenCalled();
  });

  it('validates the body before the handler runs', async () => {
    captureLog();
    const handle = vi.fn(async () => ({ ok: true }));
    const response = await apiHandler(route, handle)(event('{"n":"one"}'), context);
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).error.details).toEqual([{ path: 'n', message: expect.stringContaining('number') }]);
    expect(handle).not.toHaveBeenCalled();
  });

  it('takes a JSON body as application/json alone, in any case and with any parameters, before the handler runs', async () => {
    captureLog();
    const handle = vi.fn(async () => ({ ok: true }));
    const handler = apiHandler(route, handle);
    const typed = (contentType: string | undefined) => ({ ...(event('{"n":1}') as object), headers: contentType === undefined ? {} : { 'content-type': contentType } }) as never;
    for (const taken of ['application/json', 'APPLICATION/JSON', 'application/json; charset=UTF-8', 'application/json;charset="utf-8"', ' application/json ; foo=bar']) {
      expect((await handler(typed(taken), context)).statusCode, taken).toBe(201);
    }
    for (const refused of [undefined, '', 'text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json-seq', 'application/ld+json', 'application/jsonx']) {
      const response = await handler(typed(refused), context);
      expect([response.statusCode, JSON.parse(response.body).error.code], String(refused)).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
    expect(handle).toHaveBeenCalledTimes(5);
  });
});

describe('an Idempotency-Key and a 409', () => {
  const withKey = (key: string) => ({ ...(event('{"n":1}') as object), headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key } }) as never;

  it('does not keep a 409 CONFLICT from a write that lost its race: a retry with the same key runs again', async () => {
    captureLog();
    const handle = vi.fn().mockRejectedValueOnce(changedMeanwhile()).mockResolvedValue({ ok: true });
    const handler = apiHandler(route, handle);
    const lost = await handler(withKey('race-1'), context);
    expect([lost.statusCode, JSON.parse(lost.body).error.code]).toEqual([409, 'CONFLICT']);
    const retried = await handler(withKey('race-1'), context);
    expect([retried.statusCode, retried.headers?.['idempotent-replayed']]).toEqual([201, undefined]);
    expect(handle).toHaveBeenCalledTimes(2);
  });

  it('keeps any other 409: a retry with the same key gets the same answer, replayed', async () => {
    captureLog();
    const handle = vi.fn().mockRejectedValueOnce(new ConflictError('The name is taken')).mockResolvedValue({ ok: true });
    const handler = apiHandler(route, handle);
    expect((await handler(withKey('taken-1'), context)).statusCode).toBe(409);
    const retried = await handler(withKey('taken-1'), context);
    expect([retried.statusCode, retried.headers?.['idempotent-replayed']]).toEqual([409, 'true']);
    expect(handle).toHaveBeenCalledTimes(1);
  });
});

describe('the access log under overlapping requests', () => {
  afterEach(() => vi.useRealTimers());

  it('logs each request with its own duration when one handler serves them at once', async () => {
    vi.useFakeTimers({ now: 0 });
    const log = captureLog();
    // The handler answers a request only when the test finishes it, so the overlap is exactly as written below.
    const finish: Record<string, () => void> = {};
    const handler = apiHandler(route, ({ path }) => new Promise((resolve) => (finish[path.id] = () => resolve({ ok: true }))));
    const request = (id: string) => handler(event('{"n":1}', 'org_1', { id, requestId: `req-${id}` }), context);

    const slow = request('slow'); // starts at 0 ms
    await vi.advanceTimersByTimeAsync(250);
    const quick = request('quick'); // starts at 250 ms, while the slow one runs
    await vi.advanceTimersByTimeAsync(30);
    finish.quick!();
    await quick; // ends at 280 ms
    await vi.advanceTimersByTimeAsync(20);
    finish.slow!();
    await slow; // ends at 300 ms

    expect(log.lines().map(({ requestId, path, durationMs }) => ({ requestId, path, durationMs }))).toEqual([
      { requestId: 'req-quick', path: '/v1/probe/quick', durationMs: 30 },
      { requestId: 'req-slow', path: '/v1/probe/slow', durationMs: 300 },
    ]);
  });
});
