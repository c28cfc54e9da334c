import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routes } from '../functions/resources';
import { takesNoFields, type RouteDefinition } from '#shared/routes/route';
import { itemsOf } from './support/fixtures';
import { useTestApi } from './support/api';

// The authorizer's answers reused per key for five minutes, as API Gateway caches them in the deployed stack.
const api = useTestApi({ authorizerCacheTtlMs: 300_000 });

/** Generated requests in `npm test`; BAD_INPUT_RUNS raises it, BAD_INPUT_SEED explores other inputs (a fixed seed keeps CI repeatable). */
const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 10_000);
const SEED = Number(process.env.BAD_INPUT_SEED ?? 20_261_122);

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', '#', '%', '%E0%A4%A', '__proto__', 'constructor', 'lead_01HZZZZZZZZZZZZZZZZZZZZZZZ', '-1', '0', '1e309', 'NaN', '\u0000', '\u200b', 'null'),
);

/** A value for a path segment, sent percent-encoded or raw. */
const pathValue = fc.oneof(text.map(encodeURIComponent), fc.constantFrom('%E0%A4%A', '%', '%%', '..', '.'));

/** A JSON body of any shape, malformed text, or nothing. */
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }).map((value) => JSON.stringify(value)),
  text,
  fc.constant(undefined),
);

const query = fc.dictionary(fc.oneof(text, fc.constantFrom('page', 'limit', 'leadId', 'source', 'status', 'companyId', 'from', 'to', 'expand')), text, { maxKeys: 4 });

/** Header names and values HTTP allows, including names of Object.prototype and the idempotency header. */
const headers = fc.dictionary(
  fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/), fc.constantFrom('constructor', 'content-type', 'idempotency-key', 'content-length-x')),
  fc.stringMatching(/^[\x21-\x7e]{0,30}$/),
  { maxKeys: 3 },
);

function pathOf(route: RouteDefinition, values: string[]): string {
  let i = 0;
  return route.path.replace(/\{\w+\}/g, () => values[i++ % values.length] || 'x');
}

describe('generated bad input on every route', () => {
  it(`answers ${RUNS} generated requests with a JSON answer below 500, an envelope for every 4xx (a JSON-RPC error at /mcp), and rejected ones change nothing`, async () => {
    // Unmetered, so every generated request reaches its function instead of a 429 from the usage plan.
    const { apiKey, organizationId } = await api.organization({ demo: true, usagePlan: 'internal' });
    const before = await itemsOf(organizationId);
    const accepted: string[] = [];
    // A write that takes nothing (no path id, no field: starting a recount of the reports) has a valid request in any
    // request without a body; its own tests send it (functions/reports/rebuild-jobs.test.ts), and its bodies with a
    // field are refused by the same rule as every field-less action's.
    const takesNothing = (route: RouteDefinition) => route.auth !== 'none' && !route.sessionOnly && takesNoFields(route) && !route.path.includes('{');
    const authenticated = routes.filter((route) => route.auth !== 'none' && !takesNothing(route));
    expect(routes.filter(takesNothing).map((route) => route.operationId)).toEqual(['startReportRebuild']);

    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...authenticated), fc.array(pathValue, { minLength: 1, maxLength: 3 }), query, body, headers, async (route, values, params, raw, extra) => {
        const search = new URLSearchParams(params).toString();
        const url = `${api.url}${pathOf(route, values)}${search ? `?${search}` : ''}`;
        const res = await fetch(url, {
          method: route.method,
          // JSON's type unless a generated header names another: a body of another type is refused 415 before it is read.
          headers: { 'content-type': 'application/json', ...extra, authorization: `Bearer ${apiKey}` },
          body: route.method === 'GET' || route.method === 'DELETE' ? undefined : raw,
        });
        const answer = await res.text();
        expect(res.status, `${route.method} ${url} → ${answer}`).toBeLessThan(500);
        expect(res.status, `${route.method} ${url} was rate limited, not checked`).not.toBe(429);
        expect(res.headers.get('content-type'), url).toMatch(/^application\/json/);
        const parsed = JSON.parse(answer) as { success?: boolean; error?: { status?: number } };
        // MCP answers a body that is no JSON-RPC message as JSON-RPC says (Parse error, Invalid Request), the rest with the envelope.
        const jsonRpcError = route.path === '/mcp' && 'jsonrpc' in parsed;
        if (res.status >= 400) expect(parsed, `${route.method} ${url}`).toMatchObject(jsonRpcError ? { jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } } : { success: false, error: { status: res.status } });
        else if (route.method !== 'GET') accepted.push(`${route.method} ${url}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );

    expect(accepted, 'generated writes the API accepted').toEqual([]);
    expect(await itemsOf(organizationId)).toEqual(before);
  }, 600_000);
});

describe('query parameters an operation does not take', () => {
  it('are refused with 400 naming each, not answered as if the API had filtered', async () => {
    const { client } = await api.organization({ demo: true });
    // The list searches by q, email and phone; a suburb is not among its filters.
    const bySuburb = await client.get('/v1/leads?suburb=Parramatta&search=olivia');
    expect(bySuburb.status).toBe(400);
    expect(bySuburb.body.error.code).toBe('VALIDATION_ERROR');
    expect(bySuburb.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['search', 'suburb']);
    // Names are exact: a parameter differing only in case is another parameter.
    expect((await client.get('/v1/leads?Limit=5')).body.error.details).toEqual([{ path: 'Limit', message: 'Limit is not a query parameter of this operation' }]);
    // An operation that takes no query refuses any.
    const lead = (await client.get('/v1/leads?limit=1')).body.leads[0];
    expect((await client.get(`/v1/leads/${lead.id}?expand=company`)).status).toBe(400);
    // The parameters an operation does take still work.
    const filtered = await client.get('/v1/leads?limit=2&page=1&status=NEW');
    expect(filtered.status).toBe(200);
    expect(filtered.body.leads.every((candidate: { status: string }) => candidate.status === 'NEW')).toBe(true);
  });
});
