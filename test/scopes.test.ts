import { readFileSync } from 'node:fs';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { handler as authorizer } from '../functions/authorizer';
import { routes } from '../functions/resources';
import { createApiKey, findApiKey, listApiKeys } from '#shared/auth/api-keys';
import { someScopeRefuses } from '#shared/auth/scopes';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { apiHandler } from '#shared/http/api-handler';
import { defineRoute } from '#shared/routes/route';
import { keys } from '#shared/store/keys';
import { useTestApi } from './support/api';
import { measureDynamoCalls } from './support/dynamo-calls';

const api = useTestApi();

const INSUFFICIENT_SCOPE = {
  success: false,
  message: "The API key's scope, or the member's role, does not allow this request",
  error: { status: 403, message: "The API key's scope, or the member's role, does not allow this request", code: 'INSUFFICIENT_SCOPE' },
};

/** A new organization, its full key's client, and a client for each narrower scope. */
async function organizationWithKeys() {
  const organization = await api.organization();
  const read = await createApiKey(organization.organizationId, null, 'Dashboard', 'read');
  const write = await createApiKey(organization.organizationId, null, 'Zapier', 'write');
  return { ...organization, full: organization.client, read: api.as(read.token), write: api.as(write.token), keys: { read: read.key, write: write.key } };
}

/** A keyed route's path with every parameter filled: the gateway refuses by method before any id is read. */
const anyPath = (path: string) => path.replace(/\{\w+\}/g, 'x1');

describe('a read key', () => {
  it('reads, and is refused every create, change and delete with 403 INSUFFICIENT_SCOPE; nothing is written', async () => {
    const { full, read } = await organizationWithKeys();
    const lead = (await full.post('/v1/leads', { name: 'Jane Citizen', email: 'jane@example.com' })).body.lead;
    const company = (await full.post('/v1/companies', { name: 'Harbourside Strata' })).body.company;

    expect((await read.get('/v1/leads')).status).toBe(200);
    expect((await read.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);

    for (const res of [
      await read.post('/v1/leads', { name: 'Sneaky Create', email: 'sneaky@example.com' }),
      await read.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED' }),
      await read.put(`/v1/companies/${company.id}`, { phone: '+61299990000' }),
      await read.delete(`/v1/leads/${lead.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(INSUFFICIENT_SCOPE);
    }
    // Read back with the full key: the lead is as it was, the company unchanged, no other lead made.
    expect((await full.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);
    expect((await full.get(`/v1/companies/${company.id}`)).body.company).toEqual(company);
    expect((await full.get('/v1/leads')).body.leads.map((l: { id: string }) => l.id)).toEqual([lead.id]);
  });

  it('is refused by the gateway on every keyed route but GET, before any function touches the table', async () => {
    const { read } = await organizationWithKeys();
    // POST /mcp excepted: every key reaches it, and its tools check the scope (functions/mcp/mcp.test.ts).
    const writes = routes.filter((route) => route.auth !== 'none' && someScopeRefuses(route.method, route.path));
    expect(writes.length).toBeGreaterThan(40);
    const answers: string[] = [];
    const calls = await measureDynamoCalls(async () => {
      for (const route of writes) {
        const res = await read.request(route.method, anyPath(route.path), { body: {} });
        answers.push(`${route.method} ${route.path} ${res.status} ${res.body?.error?.code}`);
      }
    });
    expect(answers).toEqual(writes.map((route) => `${route.method} ${route.path} 403 INSUFFICIENT_SCOPE`));
    expect(calls).toEqual([]);
  });

  it('reaches every GET route (whatever it then answers, never the scope’s 403)', async () => {
    const { read } = await organizationWithKeys();
    for (const route of routes.filter((route) => route.auth !== 'none' && route.method === 'GET')) {
      const res = await read.get(anyPath(route.path));
      // A member's own routes refuse every key 403 SESSION_REQUIRED (functions/console), whatever its scope.
      if (route.sessionOnly) expect(res.body.error?.code, `${route.method} ${route.path}`).toBe('SESSION_REQUIRED');
      else expect(res.status, `${route.method} ${route.path}`).not.toBe(403);
      expect(res.status, `${route.method} ${route.path}`).toBeLessThan(500);
    }
  });
});

describe('the document', () => {
  const document = JSON.parse(readFileSync('docs/openapi.json', 'utf8'));
  const insufficientScopeIn = (answer: { $ref?: string; content?: { 'application/json'?: { examples?: Record<string, { value: { error?: { code?: string } } }> } } }) => {
    const resolved = answer.$ref ? document.components.responses[answer.$ref.split('/').at(-1)!] : answer;
    return Object.values(resolved.content?.['application/json']?.examples ?? {}).some((example: any) => example.value.error?.code === 'INSUFFICIENT_SCOPE');
  };

  it('shows 403 INSUFFICIENT_SCOPE on exactly the routes the gateway refuses some scope or some member’s role, and not on POST /mcp, which every key reaches', () => {
    const keyed = routes.filter((route) => route.auth !== 'none');
    const documented = keyed.filter((route) => {
      const answer = document.paths[route.path][route.method.toLowerCase()].responses['403'];
      return answer !== undefined && insufficientScopeIn(answer);
    });
    // A member's session is refused a route above its role, and a change without its CSRF token: every route but a GET
    // a MEMBER may call (and the MCP server's, which takes no session).
    const sessionRefuses = (route: (typeof keyed)[number]) => !route.tokenAudience && (route.method !== 'GET' || route.sessionRole !== 'MEMBER');
    expect(documented.map((route) => `${route.method} ${route.path}`)).toEqual(keyed.filter((route) => someScopeRefuses(route.method, route.path) || sessionRefuses(route)).map((route) => `${route.method} ${route.path}`));
    const mcp = document.paths['/mcp'].post.responses['403'];
    expect(insufficientScopeIn(mcp)).toBe(false);
    expect(mcp.description).not.toContain('INSUFFICIENT_SCOPE');
  });
});

describe('a write key', () => {
  it('creates and changes records', async () => {
    const { write, full } = await organizationWithKeys();
    const created = await write.post('/v1/leads', { name: 'Sam Lee', email: 'sam@example.com' });
    expect(created.status).toBe(201);
    const changed = await write.patch(`/v1/leads/${created.body.lead.id}`, { status: 'CONTACTED' });
    expect(changed.status).toBe(200);
    expect((await full.get(`/v1/leads/${created.body.lead.id}`)).body.lead.status).toBe('CONTACTED');
  });

  it('is refused every DELETE with 403 INSUFFICIENT_SCOPE, and the record stays', async () => {
    const { write, full } = await organizationWithKeys();
    const faq = (await write.post('/v1/faqs', { question: 'Are you licensed?', answer: 'Yes.' })).body.faq;
    const res = await write.delete(`/v1/faqs/${faq.id}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(INSUFFICIENT_SCOPE);
    expect((await full.get(`/v1/faqs/${faq.id}`)).body.faq).toEqual(faq);
    const deletes = routes.filter((route) => route.auth !== 'none' && route.method === 'DELETE');
    for (const route of deletes) expect((await write.delete(anyPath(route.path))).status, route.path).toBe(403);
  });
});

describe('a full key, and a key stored before scopes existed', () => {
  it('a full key deletes', async () => {
    const { full } = await organizationWithKeys();
    const faq = (await full.post('/v1/faqs', { question: 'Do you work weekends?', answer: 'Saturdays.' })).body.faq;
    expect((await full.delete(`/v1/faqs/${faq.id}`)).status).toBe(200);
    expect((await full.get(`/v1/faqs/${faq.id}`)).status).toBe(404);
  });

  it('acts as full: it reads, writes and deletes, and is listed as full', async () => {
    const { organizationId } = await api.organization();
    const { key, token } = await createApiKey(organizationId, null, 'Old integration', 'read');
    // As stored before scopes: no scope attribute at all.
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: keys.apiKey(organizationId, key.keyId), UpdateExpression: 'REMOVE #scope', ExpressionAttributeNames: { '#scope': 'scope' } }));
    const old = api.as(token);
    const faq = (await old.post('/v1/faqs', { question: 'Do you do gas?', answer: 'Yes.' }));
    expect(faq.status).toBe(201);
    expect((await old.delete(`/v1/faqs/${faq.body.faq.id}`)).status).toBe(200);
    expect((await findApiKey(organizationId, key.keyId))?.scope).toBe('full');
    expect((await listApiKeys(organizationId)).find((listed) => listed.keyId === key.keyId)?.scope).toBe('full');
  });
});

describe('the cached policy of a key (API Gateway caches the authorizer answer per token)', () => {
  const cached = useTestApi({ authorizerCacheTtlMs: 60_000 });

  it('a read key that was allowed a GET is refused a later POST with the same token, and nothing is written', async () => {
    const { organizationId, client: full } = await cached.organization();
    const { key, token } = await createApiKey(organizationId, null, null, 'read');
    const read = cached.as(token);
    expect((await read.get('/v1/leads')).status).toBe(200);
    // Its item deleted by hand (no revocation, which would flush the cache), the key is still answered from the cache:
    // what follows is the cached policy's doing.
    await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: keys.apiKey(organizationId, key.keyId) }));
    expect((await read.get('/v1/leads')).status).toBe(200);
    const res = await read.post('/v1/leads', { name: 'Cached Write', email: 'cached@example.com' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(INSUFFICIENT_SCOPE);
    expect((await full.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it('a read key refused a first POST is still answered its GETs from the same cached policy', async () => {
    const { organizationId } = await cached.organization();
    const { token } = await createApiKey(organizationId, null, null, 'read');
    const read = cached.as(token);
    expect((await read.post('/v1/faqs', { question: 'Q?', answer: 'A.' })).status).toBe(403);
    expect((await read.get('/v1/faqs')).status).toBe(200);
  });

  it('a write key allowed a GET first may then POST, and a full key DELETE, on the cached policy', async () => {
    const { organizationId, client: full } = await cached.organization();
    const { token } = await createApiKey(organizationId, null, null, 'write');
    const write = cached.as(token);
    expect((await write.get('/v1/faqs')).status).toBe(200);
    const faq = await write.post('/v1/faqs', { question: 'Q?', answer: 'A.' });
    expect(faq.status).toBe(201);
    expect((await write.delete(`/v1/faqs/${faq.body.faq.id}`)).status).toBe(403);
    expect((await full.get('/v1/faqs')).status).toBe(200);
    expect((await full.delete(`/v1/faqs/${faq.body.faq.id}`)).status).toBe(200);
  });
});

describe('the authorizer', () => {
  const methodArn = 'arn:aws:execute-api:ap-southeast-2:123456789012:abc123/prod/GET/v1/leads';
  const stage = 'arn:aws:execute-api:ap-southeast-2:123456789012:abc123/prod';
  const authorize = (token: string) => authorizer({ type: 'REQUEST', methodArn, headers: { Authorization: `Bearer ${token}` } } as never);

  it.each([
    ['read', [`${stage}/GET/*`, `${stage}/POST/mcp`]],
    ['write', [`${stage}/GET/*`, `${stage}/POST/*`, `${stage}/PUT/*`, `${stage}/PATCH/*`]],
    ['full', [`${stage}/*/*`]],
  ] as const)('allows a %s key exactly its methods on every path (and the MCP endpoint, which checks scopes itself)', async (scope, resources) => {
    const { organizationId } = await api.organization();
    const { key, token } = await createApiKey(organizationId, null, 'Reporting', scope);
    const result = await authorize(token);
    expect(result.policyDocument.Statement).toEqual([{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: resources }]);
    // The organization's own key: no member, no role, and no end of its own.
    expect(result.context).toEqual({ organizationId, keyId: key.keyId, keyName: 'Reporting', scope, memberId: '', memberRole: '', endsAt: '', counterShards: 1 });
  });

  it('gives a key without a name an empty keyName: context values cannot be null', async () => {
    const { apiKey } = await api.organization();
    expect((await authorize(apiKey)).context).toMatchObject({ keyName: '', scope: 'full' });
  });
});

describe('the scope handlers are given', () => {
  const route = defineRoute({
    operationId: 'scopeProbe',
    method: 'POST',
    path: '/v1/scope-probe',
    summary: 'Echoes the scope',
    description: 'Echoes the scope its handler is given.',
    tag: 'Reference',
    dynamodb: [],
    status: 200,
    request: {},
    response: v.object({ scope: v.nullable(v.string()) }),
    errors: [],
  });
  const handler = apiHandler(route, async ({ scope }) => ({ scope }));
  const invoke = async (authorizerContext: Record<string, unknown>) => {
    const response = await handler({ httpMethod: 'POST', path: '/v1/scope-probe', headers: {}, pathParameters: null, queryStringParameters: null, body: null, requestContext: { requestId: 'r1', authorizer: authorizerContext } } as never, {} as never);
    return JSON.parse(response.body).scope;
  };

  it('is the authorizer’s `scope`; full when an older cached answer has none; read when it is not a scope', async () => {
    expect(await invoke({ organizationId: 'org_1', scope: 'write' })).toBe('write');
    expect(await invoke({ organizationId: 'org_1', scope: 'read' })).toBe('read');
    expect(await invoke({ organizationId: 'org_1' })).toBe('full');
    expect(await invoke({ organizationId: 'org_1', scope: 'admin' })).toBe('read');
  });
});
