import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConflictError, NotFoundError } from '../shared/errors';
import { apiHandler } from '../shared/http/api-handler';
import { defineRoute } from '../shared/routes/route';

const route = defineRoute({
  operationId: 'probe',
  method: 'POST',
  path: '/v1/probe/{id}',
  handler: 'probe',
  summary: 'A route for testing the middleware',
  description: 'Echoes whether the body and path arrived.',
  tag: 'Reference',
  dynamodb: [],
  status: 201,
  request: { path: v.object({ id: v.string() }), body: v.strictObject({ n: v.number() }) },
  response: v.object({ ok: v.boolean() }),
  errors: [400, 404, 409],
});

function event(body: string | null, organizationId: string | null = 'org_1') {
  return {
    httpMethod: 'POST',
    path: '/v1/probe/7',
    headers: {},
    pathParameters: { id: '7' },
    queryStringParameters: null,
    body,
    requestContext: { requestId: 'req-123', authorizer: organizationId ? { organizationId } : null },
  } as never;
}
const context = { awsRequestId: 'lambda-456' } as never;

afterEach(() => vi.restoreAllMocks());

describe('the handler middleware', () => {
  it('answers the route status with the JSON body, and logs one structured line with the request id', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const handler = apiHandler(route, async ({ body, path, organizationId }) => ({ ok: body.n === 1 && path.id === '7' && organizationId === 'org_1' }));
    const response = await handler(event('{"n":1}'), context);
    expect(response).toMatchObject({ statusCode: 201, body: '{"ok":true}' });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(log).toHaveBeenCalledTimes(1);
    expect(JSON.parse(log.mock.calls[0]![0] as string)).toMatchObject({
      level: 'INFO',
      operationId: 'probe',
      requestId: 'req-123',
      lambdaRequestId: 'lambda-456',
      organizationId: 'org_1',
      status: 201,
    });
  });

  it.each([
    [new NotFoundError('Thing not found'), 404, 'NOT_FOUND'],
    [new ConflictError('Name taken'), 409, 'CONFLICT'],
  ])('maps %s to its status and the envelope', async (error, status, code) => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const response = await apiHandler(route, async () => {
      throw error;
    })(event('{"n":1}'), context);
    expect(response.statusCode).toBe(status);
    expect(JSON.parse(response.body)).toEqual({ success: false, message: error.message, error: { status, message: error.message, code } });
  });

  it('answers 500 without internals for anything unexpected, and logs the error', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
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
    expect(JSON.parse(log.mock.calls[0]![0] as string)).toMatchObject({ level: 'ERROR', status: 500, error: { message: 'connection string postgres://secret' } });
  });

  it('answers 500 when the authorizer context has no organization, never running the handler', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const handle = vi.fn(async () => ({ ok: true }));
    const response = await apiHandler(route, handle)(event('{"n":1}', null), context);
    expect(response.statusCode).toBe(500);
    expect(handle).not.toHaveBeenCalled();
  });

  it('validates the body before the handler runs', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const handle = vi.fn(async () => ({ ok: true }));
    const response = await apiHandler(route, handle)(event('{"n":"one"}'), context);
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).error.details).toEqual([{ path: 'n', message: expect.stringContaining('number') }]);
    expect(handle).not.toHaveBeenCalled();
  });
});

describe('the access log under overlapping requests', () => {
  afterEach(() => vi.useRealTimers());

  it('gives each request its own duration, however they overlap', async () => {
    vi.useFakeTimers({ now: 0 });
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const release: Record<string, () => void> = {};
    const handler = apiHandler(route, ({ path }) => new Promise((resolve) => (release[path.id] = () => resolve({ ok: true }))));
    const slowEvent = { ...(event('{"n":1}') as object), pathParameters: { id: 'slow' } } as never;
    const quickEvent = { ...(event('{"n":1}') as object), pathParameters: { id: 'quick' } } as never;

    const slow = handler(slowEvent, context);
    await vi.advanceTimersByTimeAsync(250);
    const quick = handler(quickEvent, context);
    await vi.advanceTimersByTimeAsync(30);
    release.quick!();
    await quick;
    await vi.advanceTimersByTimeAsync(20);
    release.slow!();
    await slow;

    const lines = log.mock.calls.map((call) => JSON.parse(call[0] as string) as { durationMs: number });
    expect(lines.map((line) => line.durationMs)).toEqual([30, 300]);
  });
});
