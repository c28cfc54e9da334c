import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BEFORE_LATEST_RULE, NonEmptyString, RECORDABLE_RULE, TEXT_PATTERN, TEXT_RULE } from '#shared/schema';
import { buildOpenApiDocument, OPENAPI_FILE, serializeDocument } from '#shared/openapi/document';
import { API, buildDocument } from '../functions/meta/document';
import { referenceRenderer } from '#shared/openapi/reference-renderer';
import { componentExamples, resources, routes } from '../functions/resources';
import { staleFiles } from '../functions/meta/generated';
import { authorizerOf, defineRoute, takesNoFields } from '#shared/routes/route';
import { allDescribed, described, describedByResource, undescribedFields } from '#shared/routes/described';
import { EVENT_TYPES } from '../functions/events/types';
import { useTestApi } from './support/api';
import { memberSession } from './support/member-session';
import { SESSION_COOKIE } from '../functions/sign-in/settings';
import { validatorAt } from './support/contract';
import { webhookMessages } from '../functions/webhooks/routes';

type Json = Record<string, any>;

const generated = buildDocument();
const document = generated as Json;
const operationOf = (route: { method: string; path: string }) => document.paths[route.path]?.[route.method.toLowerCase()] as Json;
/** An operation's documented response for a status, its $ref followed. */
const responseOf = (route: { method: string; path: string }, status: number): Json | undefined => {
  const response = operationOf(route).responses[String(status)];
  return response?.$ref ? document.components.responses[response.$ref.split('/').pop()] : response;
};
const api = useTestApi();

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => refsIn(item, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

describe('the OpenAPI document', () => {
  it('is committed as docs/openapi.json exactly as generated (run npm run generate after changing a route or schema)', () => {
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    expect(committed === serializeDocument(generated), 'docs/openapi.json is stale: run npm run generate').toBe(true);
  });

  it('names the route and the field when npm run generate meets a schema it cannot convert', () => {
    const probe = defineRoute({
      operationId: 'createProbe',
      method: 'POST',
      path: '/v1/probes',
      summary: 'A route whose body has a field JSON Schema cannot state',
      description: 'Takes a probe.',
      tag: 'Reference',
      dynamodb: [],
      status: 201,
      request: { body: v.object({ name: v.string(), schedule: v.optional(v.object({ days: v.array(v.object({ on: v.date() })) })) }) },
      response: v.object({ ok: v.boolean() }),
      errors: [400],
    });
    expect(() => buildOpenApiDocument({ ...API, routes: [probe] })).toThrow('POST /v1/probes (createProbe): body.schedule.days[].on: The "date" schema cannot be converted to JSON Schema.');
    const answering = defineRoute({ ...probe, request: {}, response: v.object({ probe: v.object({ seenAt: v.date() }) }) });
    expect(() => buildOpenApiDocument({ ...API, routes: [answering] })).toThrow('POST /v1/probes (createProbe): response 201.probe.seenAt: The "date" schema');
    expect(() => buildOpenApiDocument({ ...API, routes: [], components: { ...API.components, Probe: v.object({ seenAt: v.date() }) } })).toThrow('components.schemas.Probe.seenAt: The "date" schema');
  });

  it('takes the schemas a routes module marks describedByResource from its resource, exactly once, and documents the inbound post’s from there', () => {
    const probe = defineRoute({
      operationId: 'receiveProbe',
      method: 'POST',
      path: '/v1/probes/{probeId}',
      summary: 'A route that reads its raw body itself',
      description: 'Takes a probe.',
      tag: 'Reference',
      dynamodb: [],
      status: 201,
      request: {},
      requestBodies: describedByResource(),
      response: describedByResource<v.ObjectSchema<{ ok: v.BooleanSchema<undefined> }, undefined>>(),
      errors: [400],
    });
    // Marked, it still reads raw bodies, so its functions take a body; each mark is a field the resource must give.
    expect(takesNoFields(probe)).toBe(false);
    expect(undescribedFields(probe)).toEqual(['response', 'requestBodies']);
    const Body = v.object({ name: v.string() });
    const Answer = v.object({ ok: v.boolean() });
    const whole = described(probe, { requestBodies: { 'application/json': Body }, response: Answer });
    expect(undescribedFields(whole)).toEqual([]);
    expect(whole.requestBodies).toEqual({ 'application/json': Body });
    expect(whole.response).toBe(Answer);
    // Given half, the other half is still owed, and the route table refuses it; given where the routes module wrote a
    // schema, or given nothing, refused.
    const half = described(probe, { response: Answer });
    expect(undescribedFields(half)).toEqual(['requestBodies']);
    expect(() => allDescribed([whole, half])).toThrow('The resources do not give receiveProbe.requestBodies');
    expect(allDescribed([whole])).toEqual([whole]);
    expect(() => described(whole, { response: Answer })).toThrow('receiveProbe.response is not marked describedByResource');
    expect(() => described(probe, { response: undefined })).toThrow('receiveProbe.response is given no schema');
    // The inbound post is documented with the bodies and the answer its resource gives.
    const post = operationOf({ method: 'POST', path: '/v1/inbound/{inboundEndpointId}' });
    expect(Object.keys(post.requestBody.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
    expect(post.responses['201'].content['application/json'].schema).toEqual({ type: 'object', properties: { inquiry: { $ref: '#/components/schemas/InquiryListItem' } }, required: ['inquiry'], additionalProperties: false });
  });

  it('names every event type the resources emit, as the committed functions/events/types.ts does', () => {
    expect(staleFiles().map(({ path }) => path.pathname)).toEqual([]);
    const emitted = resources.flatMap((resource) => (resource.events ?? []).flatMap((source) => source.types));
    expect(emitted).toContain('sms.received');
    expect([...EVENT_TYPES]).toEqual(emitted);
    // The `*.updated` types carry previousAttributes (required), every other type does not; and each type's data is
    // the record its source names (a lead.created's data is a Lead), so a generated client types it.
    const shapes = (document.components.schemas.Event as unknown as { oneOf: { properties: { type: { enum: string[] }; data: { $ref: string } }; required: string[] }[] }).oneOf;
    const updated = resources.flatMap((resource) => (resource.events ?? []).flatMap((source) => source.updatedTypes ?? []));
    expect(updated).toContain('lead.updated');
    const typesWhere = (previous: boolean) => shapes.filter((shape) => shape.required.includes('previousAttributes') === previous).flatMap((shape) => shape.properties.type.enum);
    expect(typesWhere(true).sort()).toEqual([...updated].sort());
    expect(typesWhere(false).sort()).toEqual(emitted.filter((type) => !updated.includes(type)).sort());
    const dataOf = new Map(shapes.flatMap((shape) => shape.properties.type.enum.map((type) => [type, shape.properties.data.$ref.split('/').pop()])));
    const sources = resources.flatMap((resource) => resource.events ?? []);
    expect(Object.fromEntries(dataOf)).toEqual(Object.fromEntries(sources.flatMap((source) => source.types.map((type) => [type, source.data]))));
    expect([dataOf.get('lead.created'), dataOf.get('lead.note_added'), dataOf.get('company_note.deleted'), dataOf.get('sms.received')]).toEqual(['Lead', 'LeadActivity', 'CompanyNote', 'Sms']);
  });

  it("refuses, by the document, an event whose data is not the record its type names", () => {
    const validate = validatorAt('/components/schemas/Event');
    const base = { id: 'evt_01JCZ59Q4R5S6T7V8W9X0Y1Z2A', occurredAt: '2026-11-02T21:14:09.000Z', organizationId: 'org_01JA0000000000000000000000' };
    const lead = componentExamples.Lead as Record<string, unknown>;
    expect(validate({ ...base, type: 'lead.created', data: lead })).toBe(true);
    expect(validate({ ...base, type: 'lead.created', data: componentExamples.Company })).toBe(false);
    expect(validate({ ...base, type: 'company.created', data: lead })).toBe(false);
    expect(validate({ ...base, type: 'lead.updated', data: lead, previousAttributes: { status: 'NEW' } })).toBe(true);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every route of the route table once, with its operationId, summary and tag, and the CORS preflight of each that answers one', () => {
    const operationIds = routes.map((route) => route.operationId);
    expect(new Set(operationIds).size).toBe(operationIds.length);
    for (const route of routes) {
      expect(operationOf(route), `${route.method} ${route.path}`).toMatchObject({ operationId: route.operationId, summary: route.summary, tags: [route.tag] });
    }
    const preflighted = routes.filter((route) => route.preflight);
    expect(preflighted.map((route) => route.operationId)).toContain('receiveInbound');
    for (const route of preflighted) expect(operationOf({ method: 'OPTIONS', path: route.path }), route.path).toMatchObject({ operationId: `${route.operationId}Preflight`, security: [] });
    const documented = Object.values(document.paths as Record<string, Json>).flatMap((item) => Object.keys(item));
    expect(documented).toHaveLength(routes.length + preflighted.length);
  });

  it("lists every response a route can give: success, its errors, 401 unless public, 429, 500, the gateway's 503 behind an authorizer and its 504", () => {
    for (const route of routes) {
      const statuses = Object.keys(operationOf(route).responses).map(Number);
      const expected = [route.status, ...route.errors, 429, 500, 504, ...(route.auth === 'none' ? [] : [401]), ...(authorizerOf(route) ? [503] : [])];
      expect(statuses, `${route.method} ${route.path}`).toEqual(expect.arrayContaining(expected));
      // A public route answers 401 only where it checks a credential of its own (an inbound URL's token or signature).
      if (route.auth === 'none' && !route.errors.includes(401)) expect(statuses).not.toContain(401);
      // No authorizer and no table, nothing to fail: the description, its reference page and OAuth's metadata answer no 503.
      if (!authorizerOf(route) && route.dynamodb.length === 0) expect(statuses, `${route.method} ${route.path}`).not.toContain(503);
    }
    expect(responseOf({ method: 'GET', path: '/v1/leads' }, 503)?.content['application/json'].examples.AuthorizerUnavailable.value.error.code).toBe('AUTHORIZER_UNAVAILABLE');
    expect(responseOf({ method: 'GET', path: '/openapi' }, 504)?.content['application/json'].examples.Timeout.value.error.code).toBe('TIMEOUT');
  });

  it('declares Idempotent-Replayed on every success answer of every operation that honours Idempotency-Key, and on no other', () => {
    for (const route of routes) {
      const operation = operationOf(route);
      const takesKey = (operation.parameters ?? []).some((parameter: Json) => parameter.name === 'Idempotency-Key') && route.auth !== 'none';
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        const declared = Object.keys(response.headers ?? {}).includes('Idempotent-Replayed');
        expect(declared, `${route.operationId} ${status}`).toBe(takesKey && Number(status) < 300);
      }
    }
    expect(operationOf({ method: 'POST', path: '/v1/companies' }).responses['201'].headers['Idempotent-Replayed'].schema).toEqual({ type: 'string', const: 'true' });
  });

  it('takes the bearer API key or a member’s session cookie on every keyed operation, the cookie alone on a member’s own, the bearer alone on the MCP server, nothing on a public one', () => {
    expect(document.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      // The cookie the sign-in sets, which the edge makes the bearer token (functions/sign-in/edge/viewer-request.js).
      sessionCookie: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }),
    });
    const either = [{ apiKey: [] }, { sessionCookie: [] }];
    expect(document.security).toEqual(either);
    for (const route of routes) {
      const takes = route.auth === 'none' ? [] : route.sessionOnly ? [{ sessionCookie: [] }] : route.tokenAudience ? [{ apiKey: [] }] : either;
      expect(operationOf(route).security, `${route.method} ${route.path}`).toEqual(takes);
    }
    expect(routes.filter((route) => route.sessionOnly).map((route) => `${route.method} ${route.path}`)).toEqual(expect.arrayContaining(['GET /v1/me', 'POST /v1/api-keys']));
    expect(operationOf({ method: 'GET', path: '/v1/me' }).security).toEqual([{ sessionCookie: [] }]);
    expect(operationOf({ method: 'DELETE', path: '/v1/api-keys/{keyId}' }).security).toEqual([{ sessionCookie: [] }]);
    expect(operationOf({ method: 'GET', path: '/v1/leads' }).security).toEqual(either);
    expect(operationOf({ method: 'POST', path: '/v1/leads' }).security).toEqual(either);
    expect(operationOf({ method: 'POST', path: '/mcp' }).security).toEqual([{ apiKey: [] }]);
    expect(operationOf({ method: 'GET', path: '/openapi' }).security).toEqual([]);
    expect(operationOf({ method: 'GET', path: '/docs' }).security).toEqual([]);
  });

  it('names the 403 codes each keyed operation may answer its caller: SESSION_REQUIRED on a member’s own, CSRF_TOKEN_REQUIRED on each change a session makes, INSUFFICIENT_SCOPE where a scope or role refuses', async () => {
    /** The codes a 403 names in its examples, each also in its description. */
    const forbidden = (route: { method: string; path: string }) => {
      const response = responseOf(route, 403);
      const codes = Object.values((response?.content['application/json'].examples ?? {}) as Record<string, Json>).map((example) => example.value.error.code as string);
      for (const code of codes) expect(response!.description, `${route.method} ${route.path}`).toContain(code);
      return codes;
    };
    expect(forbidden({ method: 'GET', path: '/v1/me' })).toEqual(['SESSION_REQUIRED']);
    expect(forbidden({ method: 'GET', path: '/v1/api-keys' })).toEqual(['SESSION_REQUIRED', 'INSUFFICIENT_SCOPE']);
    expect(forbidden({ method: 'POST', path: '/v1/api-keys' })).toEqual(['SESSION_REQUIRED', 'INSUFFICIENT_SCOPE', 'CSRF_TOKEN_REQUIRED']);
    expect(forbidden({ method: 'DELETE', path: '/v1/me/session' })).toEqual(['SESSION_REQUIRED', 'INSUFFICIENT_SCOPE', 'CSRF_TOKEN_REQUIRED']);
    expect(forbidden({ method: 'POST', path: '/v1/leads' })).toEqual(['INSUFFICIENT_SCOPE', 'CSRF_TOKEN_REQUIRED']);
    expect(responseOf({ method: 'GET', path: '/v1/leads' }, 403)).toBeUndefined();
    for (const route of routes.filter((each) => each.auth !== 'none' && !each.tokenAudience)) {
      const codes = responseOf(route, 403) ? forbidden(route) : [];
      if (route.sessionOnly) expect(codes, `${route.method} ${route.path}`).toContain('SESSION_REQUIRED');
      expect(codes.includes('CSRF_TOKEN_REQUIRED'), `${route.method} ${route.path}`).toBe(route.method !== 'GET');
    }
    // The answers themselves: a key on a member's own route, a session's change without its CSRF header.
    const { organizationId, client } = await api.organization();
    expect((await client.get('/v1/me')).body.error.code).toBe('SESSION_REQUIRED');
    const session = await memberSession(api, organizationId);
    const unsent = await session.post('/v1/leads', { name: 'Ada Lovelace', email: 'ada@example.com' }, { headers: { 'x-csrf-token': '' } });
    expect([unsent.status, unsent.body.error.code]).toEqual([403, 'CSRF_TOKEN_REQUIRED']);
  });

  it('declares no header parameter named Authorization, Accept or Content-Type, which OpenAPI tools must ignore', () => {
    // OpenAPI 3.1.0, Parameter Object: 'If in is "header" and the name field is "Accept", "Content-Type" or
    // "Authorization", the parameter definition SHALL be ignored.' A credential an operation takes is a security
    // scheme (the inbound post's Vapi Bearer token), else generated clients never send it.
    const ignored = ['authorization', 'accept', 'content-type'];
    const declared = Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        ((operation.parameters ?? []) as Json[]).filter((parameter) => parameter.in === 'header' && ignored.includes(String(parameter.name).toLowerCase())).map((parameter) => `${method.toUpperCase()} ${path} ${parameter.name}`),
      ),
    );
    expect(declared).toEqual([]);
  });

  it('names one server, the base URL, which in the committed copy is the local API', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '{base_url}', variables: { base_url: expect.objectContaining({ default: 'http://localhost:3000' }) } })]);
  });

  it('describes every operation and every tag, from the route table', () => {
    for (const route of routes) expect(operationOf(route).description, route.operationId).toBe(route.description);
    expect(document.tags.map((tag: Json) => tag.name).sort()).toEqual([...new Set(routes.map((route) => route.tag))].sort());
    for (const tag of document.tags) expect(tag.description, tag.name).toEqual(expect.any(String));
  });

  it('names every group of operations in its opening, in the reference’s order, so a new resource is named there too', () => {
    const opening = (document.info.description as string).split('\n')[0];
    expect(opening).toBe(`A sales pipeline for trades businesses. Its operations, by group: ${document.tags.map((tag: Json) => tag.name).join(', ')}.`);
  });

  it('describes page and limit as integers with their bounds and defaults on every list', () => {
    const lists = routes.filter((route) => operationOf(route).parameters?.some((p: Json) => p.name === 'limit'));
    expect(lists.map((route) => route.operationId)).toEqual(expect.arrayContaining(['listLeads', 'listLeadActivities', 'listInquiries']));
    for (const route of lists) {
      const parameters = operationOf(route).parameters as Json[];
      expect(parameters.find((p) => p.name === 'page'), route.path).toEqual({ name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 2147483647, default: 1 } });
      expect(parameters.find((p) => p.name === 'limit'), route.path).toEqual({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } });
    }
  });

  it('describes every path parameter as required, integer ids as integers', () => {
    for (const route of routes) {
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const parameters = (operationOf(route).parameters ?? []).filter((p: Json) => p.in === 'path');
      expect(parameters.map((p: Json) => p.name), route.path).toEqual(names);
      for (const parameter of parameters) expect(parameter.required).toBe(true);
    }
    const productId = operationOf({ method: 'PUT', path: '/v1/products/{productId}' }).parameters[0];
    expect(productId.schema).toMatchObject({ type: 'integer', minimum: 1 });
  });

  it('gives each request body its schema, unknown fields refused', () => {
    for (const route of routes.filter((r) => r.request.body)) {
      const body = operationOf(route).requestBody;
      expect(body, route.path).toMatchObject({ required: true, content: { 'application/json': { schema: expect.any(Object) } } });
    }
    const createLead = operationOf({ method: 'POST', path: '/v1/leads' }).requestBody.content['application/json'].schema;
    expect(createLead).toMatchObject({ type: 'object', additionalProperties: false });
    expect(createLead.properties.email).toMatchObject({ type: 'string', format: 'email' });
  });

  it('states the body rules the API enforces beyond field types, so a client can check before sending', async () => {
    const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema(document, 'urn:sales-pipeline:request-bodies');
    const accepts = (path: string, method: string, body: unknown) =>
      ajv.validate({ $ref: `urn:sales-pipeline:request-bodies#/paths/${path.replace(/\//g, '~1')}/${method}/requestBody/content/application~1json/schema` }, body);
    const { client } = await api.organization({ demo: true });
    const policyId = (await client.get('/v1/policies?limit=1')).body.policies[0].id;
    const cases: Array<[string, string, string, unknown]> = [
      ['/v1/leads', 'post', '/v1/leads', { email: 'only@example.com' }],
      ['/v1/leads', 'post', '/v1/leads', { email: 'first@example.com', firstName: 'Ada' }],
      ['/v1/leads', 'post', '/v1/leads', { email: 'named@example.com', name: 'Ada Lovelace' }],
      ['/v1/policies/{policyId}', 'put', `/v1/policies/${policyId}`, {}],
      ['/v1/policies/{policyId}', 'put', `/v1/policies/${policyId}`, { isActive: true }],
      ['/v1/products/{productId}', 'put', '/v1/products/1', {}],
      ['/v1/transfers/{transferId}', 'put', '/v1/transfers/1', {}],
      ['/v1/products', 'post', '/v1/products', { name: 'Out of catalog', tradeCategoryId: 13, pricingType: 'NONE' }],
      // A service's price under its older names, or under both names (refused, naming the older).
      ['/v1/services', 'post', '/v1/services', { name: 'Gas check', duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'FIXED', pricingMode: 'FIXED', price: 120 }],
      ['/v1/services', 'post', '/v1/services', { name: 'Gas check', duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'FIXED', price: 120, fixedPrice: 120 }],
      ['/v1/services', 'post', '/v1/services', { name: 'Gas check', duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingMode: 'FIXED', fixedPrice: 120 }],
    ];
    for (const [template, method, path, body] of cases) {
      const res = await client.request(method.toUpperCase(), path, { body });
      expect(accepts(template, method, body), `${method} ${template} ${JSON.stringify(body)}: the API answered ${res.status}`).toBe(res.status < 400);
    }
  });

  it('names the component schemas and refers to them instead of repeating them', () => {
    const schemas = document.components.schemas as Json;
    for (const name of ['ErrorEnvelope', 'Lead', 'LeadActivity', 'Inquiry', 'InquiryListItem', 'Product', 'Service', 'Scenario', 'Member', 'CompanyNote']) {
      expect(schemas[name], name).toBeDefined();
    }
    const listLeads = operationOf({ method: 'GET', path: '/v1/leads' }).responses['200'].content['application/json'].schema;
    expect(listLeads.properties.leads.items).toEqual({ $ref: '#/components/schemas/Lead' });
    expect(operationOf({ method: 'GET', path: '/v1/inquiries/{inquiryId}' }).responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Inquiry',
    });
    const pointers = refsIn(document).map((ref) => ref.replace(/^#\//, '').split('/'));
    for (const pointer of pointers) {
      expect(pointer.reduce<Json | undefined>((node, part) => node?.[part], document), pointer.join('/')).toBeDefined();
    }
  });

  it('answers errors with the envelope, and the SMS provider failure with {message} only', () => {
    expect(document.components.schemas.ErrorEnvelope).toMatchObject({ type: 'object', required: ['success', 'message', 'error'] });
    expect(operationOf({ method: 'GET', path: '/v1/leads' }).responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    const sms = operationOf({ method: 'POST', path: '/v1/sms' }).responses;
    expect(sms['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
    // Without an example of its own, an operation refers to the shared response.
    expect(operationOf({ method: 'GET', path: '/v1/leads/{leadId}' }).responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
    expect(sms['502'].content['application/json'].schema).toEqual({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false });
  });

  it('shows BATCH_TOO_LARGE on the batch update, and its items with their 100-item limit', () => {
    const batch = operationOf({ method: 'PATCH', path: '/v1/products/batch' });
    const examples = batch.responses['400'].content['application/json'].examples;
    expect(Object.values(examples).map((example: any) => example.value.error.code)).toContain('BATCH_TOO_LARGE');
    const updates = batch.requestBody.content['application/json'].schema.properties.updates;
    expect(updates.items).toMatchObject({ type: 'object', required: ['id'], properties: { id: { type: 'integer' } } });
    expect(updates.description).toContain('BATCH_TOO_LARGE');
  });

  it('carries examples that match their own schemas', () => {
    const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    ajv.addSchema(document, 'doc');
    expect(Object.keys(componentExamples).length).toBeGreaterThan(10);
    for (const [name, example] of Object.entries(componentExamples)) {
      expect(document.components.schemas[name]?.examples, name).toEqual([example]);
      const validate = ajv.getSchema(`doc#/components/schemas/${name}`)!;
      expect(validate(example) ? [] : validate.errors, name).toEqual([]);
    }
    const envelope = ajv.getSchema('doc#/components/schemas/ErrorEnvelope')!;
    for (const route of routes) {
      for (const [status, documented] of Object.entries(operationOf(route).responses as Json)) {
        const response = documented.$ref ? document.components.responses[documented.$ref.split('/').pop()] : documented;
        const media = response.content?.['application/json'];
        if (media?.schema?.$ref !== '#/components/schemas/ErrorEnvelope') continue;
        for (const [name, example] of Object.entries(media.examples ?? {}) as Array<[string, Json]>) {
          expect(envelope(example.value) ? [] : envelope.errors, `${route.operationId} ${status} ${name}`).toEqual([]);
          expect(example.value.error.status, `${route.operationId} ${status} ${name}`).toBe(Number(status));
        }
      }
    }
  });
});

describe('the webhooks a receiver is sent (OpenAPI 3.1 webhooks)', () => {
  const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema(document, 'doc');
  const bodyOf = (name: string) => ajv.getSchema(`doc#/webhooks/${name.replaceAll('~', '~0').replaceAll('/', '~1')}/post/requestBody/content/application~1json/schema`)!;

  it('describes each as a POST carrying the three Standard Webhooks headers, needing no API key, with what each answer makes the sender do', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual(['event', 'webhook.test']);
    for (const [name, item] of Object.entries(document.webhooks as Record<string, Json>)) {
      expect(Object.keys(item), name).toEqual(['post']);
      const { post } = item;
      expect(post.parameters.filter((parameter: Json) => parameter.in === 'header').map((parameter: Json) => [parameter.name, parameter.required]), name).toEqual([
        ['webhook-id', true],
        ['webhook-timestamp', true],
        ['webhook-signature', true],
      ]);
      expect(post.security, name).toEqual([]);
      expect(Object.keys(post.responses).sort(), name).toEqual(['2XX', '410', 'default']);
    }
    expect(document.webhooks.event.post.responses.default.headers['Retry-After']).toEqual({ description: webhookMessages.event!.answers.default!.headers!['Retry-After'], schema: { type: 'string' } });
    // Operation ids are unique across the document, webhooks included.
    const ids = [...routes.map((route) => route.operationId), ...Object.values(document.webhooks as Record<string, Json>).map((item) => item.post.operationId)];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every event the Event body GET /v1/events lists, and the test event a body of its own, leaving Event exact', () => {
    expect(document.webhooks.event.post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Event' });
    const event = bodyOf('event');
    const ping = bodyOf('webhook.test');
    expect(event(componentExamples.Event) ? [] : event.errors).toEqual([]);
    expect(ping(componentExamples.WebhookTestEvent) ? [] : ping.errors).toEqual([]);
    // The ping is no event GET /v1/events lists, and no event is a ping.
    expect(event(componentExamples.WebhookTestEvent)).toBe(false);
    expect(ping(componentExamples.Event)).toBe(false);
    expect(ping({ ...(componentExamples.WebhookTestEvent as Json), type: 'lead.created' })).toBe(false);
  });
});

describe('the error examples an operation shows', () => {
  it('name, in a 400, only parameters and fields that operation takes', () => {
    const misplaced: string[] = [];
    for (const route of routes) {
      const operation = operationOf(route);
      const taken = new Set<string>((operation.parameters ?? []).map((parameter: Json) => parameter.name));
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const resolved = body?.$ref ? document.components.schemas[body.$ref.split('/').pop()] : body;
      // A body of several shapes (an inquiry of each source) takes the fields of each.
      for (const shape of [resolved, ...(resolved?.oneOf ?? []), ...(resolved?.anyOf ?? [])]) for (const name of Object.keys(shape?.properties ?? {})) taken.add(name);
      for (const [name, example] of Object.entries<Json>(responseOf(route, 400)?.content?.['application/json']?.examples ?? {})) {
        for (const detail of example.value.error.details ?? []) if (!taken.has(detail.path.split('.')[0])) misplaced.push(`${route.operationId} ${name}: ${detail.path}`);
      }
    }
    expect(misplaced).toEqual([]);
    // The batch update, which takes no limit, showed "limit must be at most 100" as every operation did.
    const batch = responseOf({ method: 'PATCH', path: '/v1/products/batch' }, 400)!.content['application/json'].examples;
    expect(batch.BadRequest.value.error.details.map((detail: Json) => detail.path)).toEqual(['updates']);
  });

  it('show a 404 naming the record the operation reads, and no 404 or 409 example on an operation that cannot answer it', () => {
    const notFound = (method: string, path: string) => responseOf({ method, path }, 404)?.content?.['application/json']?.examples?.NotFound?.value.message;
    expect(notFound('GET', '/v1/products/{productId}')).toBe('Trade product not found');
    expect(notFound('DELETE', '/v1/companies/{companyId}/notes/{noteId}')).toBe('Company note not found');
    expect(notFound('POST', '/v1/sms')).toBe('User not found');
    for (const route of routes) {
      const conflicts = Object.values<Json>(responseOf(route, 409)?.content?.['application/json']?.examples ?? {}).map((example) => example.value.error.code);
      // A reused Idempotency-Key where the operation takes one; a product's name only where a product is named.
      if (conflicts.includes('IDEMPOTENCY_KEY_REUSED')) expect(operationOf(route).parameters.map((parameter: Json) => parameter.name), route.operationId).toContain('Idempotency-Key');
      if (conflicts.includes('CONFLICT') && route.tag !== 'Products') expect.fail(`${route.operationId} shows a conflict of another resource`);
    }
  });
});

describe('GET /openapi', () => {
  it('answers the document without authentication', async () => {
    const res = await api.anonymous.get('/openapi');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const { servers: _, ...served } = res.body;
    const { servers: __, ...committed } = document;
    expect(served).toEqual(committed);
  });

  it('names the API that served it as its server, so a client generated from {base_url}/openapi calls that API', async () => {
    const res = await api.anonymous.get('/openapi');
    const [server] = res.body.servers as Array<{ url: string; variables?: Record<string, { default: string }> }>;
    const templated = server!.url.replace(/\{(\w+)\}/g, (_, name: string) => server!.variables![name]!.default);
    // A relative server URL is resolved against where the document was served (OpenAPI 3.1, 4.8.5).
    expect(new URL(templated, `${api.url}/openapi`).href.replace(/\/$/, '')).toBe(api.url);
    // Asked at another host name, the document names that one.
    const elsewhere = api.url.replace('localhost', '127.0.0.1');
    expect(elsewhere).not.toBe(api.url);
    const other = (await fetch(`${elsewhere}/openapi`).then((answer) => answer.json())) as Json;
    expect(other.servers[0].variables.base_url.default).toBe(elsewhere);
  });

  it('answers it with an API key too', async () => {
    const { client } = await api.organization();
    expect((await client.get('/openapi')).body.openapi).toBe('3.1.0');
  });
});

describe('GET /docs', () => {
  it('answers the reference page without authentication, loading the renderer and the document from the API itself', async () => {
    const res = await api.anonymous.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<title>Sales Pipeline API reference</title>');
    expect(res.body).toMatch(/"\/docs\/api-reference\.[0-9a-f]{12}\.js"/);
    expect(res.body).toContain('"/openapi"');
    expect(res.body).not.toMatch(/https?:\/\//);
  });

  it('serves the renderer script itself, so the page needs no other host', async () => {
    const res = await api.anonymous.get(`/docs/${referenceRenderer().name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.body).toContain('createApiReference');
    // Lambda answers at most 6 MB, counted on the JSON-encoded proxy response.
    expect(Buffer.byteLength(JSON.stringify({ statusCode: 200, headers: {}, body: res.body }))).toBeLessThan(5.5 * 1024 * 1024);
  });

  it('bounds every string and every array a client can send, in the document', () => {
    const unbounded: string[] = [];
    const walk = (schema: Json | undefined, where: string): void => {
      if (!schema || typeof schema !== 'object' || schema.$ref) return;
      const fixed = schema.enum || schema.const !== undefined || schema.format || schema.pattern;
      if (schema.type === 'string' && schema.maxLength === undefined && !fixed) unbounded.push(where);
      if (schema.type === 'array' && schema.maxItems === undefined) unbounded.push(`${where}[]`);
      for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property as Json, `${where}.${name}`);
      walk(schema.items, `${where}[]`);
      if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, `${where}{}`);
      walk(schema.propertyNames, `${where}<key>`);
      for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) walk(branch, where);
    };
    for (const route of routes) {
      const operation = operationOf(route);
      walk(operation.requestBody?.content?.['application/json']?.schema, `${route.operationId} body`);
      for (const parameter of operation.parameters ?? []) walk(parameter.schema, `${route.operationId} ${parameter.name}`);
    }
    expect(unbounded).toEqual([]);
  });
});

describe('the text rule in the document', () => {
  it('is stated on every free-text field of a request, as a sentence and a pattern', () => {
    const name = document.paths['/v1/companies'].post.requestBody.content['application/json'].schema;
    const fields = (name.$ref ? document.components.schemas[name.$ref.split('/').pop()] : name).properties;
    expect(fields.name).toMatchObject({ pattern: TEXT_PATTERN, description: TEXT_RULE });
  });

  it('accepts exactly the text the API accepts', () => {
    const pattern = new RegExp(TEXT_PATTERN, 'u');
    const field = NonEmptyString('note', 10_000);
    const pieces = fc.constantFrom('a', 'é', ' ', '\t', '\n', '\r', '\u0000', '\u0007', '\u000B', '\u001F', '\u007F', '\u0085', '\u00A0', '\u200B', '\u2028', '\uFEFF', '\u00AD', '😀', 'Z');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 8 }).map((parts) => parts.join('')), (text) => {
        expect(pattern.test(text), JSON.stringify(text)).toBe(v.safeParse(field, text).success);
      }),
      { numRuns: 5_000, seed: 20_261_123 },
    );
  });

  it('takes and refuses exactly the texts its earlier form did, which a backtracking validator read in time growing as a power of the length', () => {
    // The earlier form: white space, text, a visible character, text and white space, the classes overlapping.
    const earlier = String.raw`^\s*[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]*[^\s\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB\u0000-\u001F\u007F-\u009F][^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]*\s*$`;
    // Every character either form names and those beside it, every white space character, and any other character.
    const named = [...`${earlier}${TEXT_PATTERN}`.matchAll(/\\u([0-9A-F]{4})/g)].flatMap(([, hex]) => [-1, 0, 1].map((step) => String.fromCharCode(parseInt(hex!, 16) + step)));
    const space = [...'\t\n\u000B\u000C\r \u00A0\u1680\u2000\u2005\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF\u001C\u0085'];
    const unit = fc.oneof(fc.constantFrom(...named, ...space, 'a', '😀', '\uD800', '\uDC00'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
    for (const flags of ['u', '']) {
      const [before, now] = [new RegExp(earlier, flags), new RegExp(TEXT_PATTERN, flags)];
      fc.assert(
        fc.property(fc.string({ unit, maxLength: 12 }), (text) => {
          expect(now.test(text), JSON.stringify(text)).toBe(before.test(text));
        }),
        { numRuns: 20_000, seed: 20_261_125 },
      );
    }
  });
});

/** Every schema a client sends (bodies and parameters, references followed) with where it is and what describes it. */
function sentSchemas(): { where: string; schema: Json; description: string }[] {
  const found: { where: string; schema: Json; description: string }[] = [];
  const walk = (node: Json | undefined, where: string, described: string): void => {
    if (!node || typeof node !== 'object') return;
    const schema = node.$ref ? document.components.schemas[node.$ref.split('/').pop()] : node;
    found.push({ where, schema, description: schema.description ?? described });
    for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property as Json, `${where}.${name}`, '');
    walk(schema.items, `${where}[]`, '');
    for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) walk(branch, where, schema.description ?? described);
  };
  for (const [path, operations] of Object.entries(document.paths as Record<string, Json>)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const [type, content] of Object.entries((operation.requestBody?.content ?? {}) as Record<string, Json>)) walk(content.schema, `${method.toUpperCase()} ${path} ${type} body`, '');
      for (const parameter of operation.parameters ?? []) walk(parameter.schema, `${method.toUpperCase()} ${path} ${parameter.name}`, parameter.description ?? '');
    }
  }
  return found;
}

describe('rules the document states in words, as the API enforces them', () => {
  it('bounds every time a client sends, where format date-time cannot: before 9999 everywhere, from 1970 in an inquiry’s record', async () => {
    const times = sentSchemas().filter(({ schema }) => schema.format === 'date-time');
    expect(times.length).toBeGreaterThan(40);
    const unbounded = times.filter(({ description }) => !description.includes(BEFORE_LATEST_RULE) && !description.includes(RECORDABLE_RULE));
    expect(unbounded.map(({ where }) => where)).toEqual([]);
    const inquiryTimes = times.filter(({ where }) => where.startsWith('POST /v1/inquiries '));
    expect(inquiryTimes.map(({ where }) => where)).toContain('POST /v1/inquiries application/json body.data.receivedAt');
    expect(inquiryTimes.filter(({ description }) => !description.includes(RECORDABLE_RULE)).map(({ where }) => where)).toEqual([]);

    const { client } = await api.organization();
    const received = (receivedAt: string) =>
      client.post('/v1/inquiries', { source: 'EMAIL', lead: { email: 'bounds@example.com' }, data: { subject: 'Quote', from: 'bounds@example.com', to: 'office@example.com', body: 'Hello', receivedAt } });
    for (const refused of ['1969-12-31T23:59:59.999Z', '9999-01-01T00:00:00.000Z']) {
      const res = await received(refused);
      expect(res.status, refused).toBe(400);
      expect(res.body.error.details).toEqual([{ path: 'data.receivedAt', message: 'data.receivedAt must be from 1970-01-01T00:00:00.000Z and before 9999-01-01T00:00:00.000Z' }]);
    }
    expect((await received('1970-01-01T00:00:00.000Z')).status).toBe(201);
    expect((await received('9998-12-31T23:59:59.999Z')).status).toBe(201);
    // Elsewhere a time before 1970 is only a time the answer has nothing before.
    expect((await client.get('/v1/appointments?from=1969-12-31T00:00:00Z')).status).toBe(200);
    const late = await client.get('/v1/appointments?from=9999-01-01T00:00:00Z');
    expect([late.status, late.body.error.details]).toEqual([400, [{ path: 'from', message: 'from must be before 9999-01-01T00:00:00.000Z' }]]);
    const since = await client.get('/v1/leads?updatedSince=9999-01-01T00:00:00Z');
    expect([since.status, since.body.error.details]).toEqual([400, [{ path: 'updatedSince', message: 'updatedSince must be before 9999-01-01T00:00:00.000Z' }]]);
    expect((await client.get('/v1/leads?updatedSince=9998-12-31T23:59:59.999Z')).status).toBe(200);
  });

  it('refuses, as format email does (RFC 5321), an address with more than 64 characters before the @, on every create that takes one', async () => {
    const { client } = await api.organization();
    const creates: Array<[string, string]> = [
      ['/v1/leads', 'email'],
      ['/v1/leads/upsert', 'email'],
      ['/v1/inquiries', 'lead.email'],
      ['/v1/companies', 'email'],
      ['/v1/organization/members', 'email'],
      ['/v1/organization/invitations', 'email'],
    ];
    const emails = sentSchemas().filter(({ schema }) => schema.format === 'email').map(({ where }) => where);
    for (const [i, [path, field]] of creates.entries()) {
      expect(emails, path).toContain(`POST ${path} application/json body.${field}`);
      const content = operationOf({ method: 'POST', path }).requestBody.content['application/json'];
      // The operation's own example, with no phone (each create makes a record of its own) and the address to try.
      const send = (local: number) => {
        const body = structuredClone(content.example ?? (Object.values(content.examples)[0] as Json).value);
        const holder = field === 'lead.email' ? body.lead : body;
        delete holder.phone;
        holder.email = `${String.fromCharCode(97 + i).repeat(local)}@example.com`;
        return client.post(path, body);
      };
      const over = await send(65);
      expect(over.status, path).toBe(400);
      expect(over.body.error.details, path).toEqual([{ path: field, message: `${field} must have at most 64 characters before the @` }]);
      expect((await send(64)).status, path).toBeLessThan(300);
    }
    const listed = await client.get(`/v1/leads?email=${'a'.repeat(65)}@example.com`);
    expect([listed.status, listed.body.error.details[0].path]).toEqual([400, 'email']);
  });

  it('takes only dates the calendar has in closedDates, by the format date the document gives them', async () => {
    const closedDates = sentSchemas().find(({ where }) => where === 'PATCH /v1/organization application/json body.closedDates[]')!;
    expect(closedDates.schema).toMatchObject({ format: 'date' });
    expect(closedDates.description).toContain('2027-02-31 is refused');
    const valid = validatorAt('/paths/~1v1~1organization/patch/requestBody/content/application~1json/schema');
    const { client } = await api.organization();
    for (const [dates, taken] of [[['2027-02-31'], false], [['2026-02-29'], false], [['2028-02-29'], true], [['2027-12-31'], true], [['0000-02-29'], true]] as const) {
      expect(valid({ closedDates: dates }), dates[0]).toBe(taken);
      const res = await client.patch('/v1/organization', { closedDates: dates });
      expect(res.status, dates[0]).toBe(taken ? 200 : 400);
      if (!taken) expect(res.body.error.details).toEqual([{ path: 'closedDates.0', message: 'each closed date must be a date of the calendar' }]);
    }
  });

  it('states that a period of hours closes after it opens, on its own day, and refuses an overnight one naming its close', async () => {
    for (const field of ['PATCH /v1/organization application/json body.businessHours', 'PATCH /v1/organization/members/{memberId} application/json body.workingHours']) {
      const hours = sentSchemas().filter(({ where }) => where === field);
      expect(hours.some(({ description }) => description.includes('`close` is after `open` on the same day')), field).toBe(true);
    }
    const { client } = await api.organization();
    const overnight = await client.patch('/v1/organization', { businessHours: { friday: [{ open: '22:00', close: '02:00' }] } });
    expect([overnight.status, overnight.body.error.details]).toEqual([400, [{ path: 'businessHours.friday.0.close', message: 'close must be after open (a period ends on the day it starts)' }]]);
    const split = await client.patch('/v1/organization', { businessHours: { friday: [{ open: '22:00', close: '24:00' }], saturday: [{ open: '00:00', close: '02:00' }] } });
    expect(split.status).toBe(200);
  });

  it('states on a service’s create, as on its update and on products, that maxPrice is not below minPrice, and refuses one that is', async () => {
    const create = operationOf({ method: 'POST', path: '/v1/services' });
    expect(create.description).toContain('`minPrice` ≤ `maxPrice`');
    for (const where of ['POST /v1/services application/json body.maxPrice', 'PATCH /v1/services/{serviceId} application/json body.maxPrice']) {
      expect(sentSchemas().some((found) => found.where === where && found.description.includes('Not less than `minPrice`')), where).toBe(true);
    }
    const { client } = await api.organization();
    const body = { ...create.requestBody.content['application/json'].example, pricingType: 'RANGE', minPrice: 200, maxPrice: 199.99, memberIds: [] };
    const res = await client.post('/v1/services', body);
    expect([res.status, res.body.error.details]).toEqual([400, [{ path: 'maxPrice', message: 'maxPrice must not be less than minPrice' }]]);
    expect((await client.get('/v1/services')).body.totalCount).toBe(0);
    expect((await client.post('/v1/services', { ...body, maxPrice: 200 })).status).toBe(201);
  });
});

describe('the OAuth requests in the document', () => {
  it('states every parameter a request must carry as not empty (minLength 1), as the API refuses an empty one naming it', async () => {
    const authorize = (operationOf({ method: 'GET', path: '/oauth/authorize' }).parameters as Json[]).filter((parameter) => parameter.required);
    expect(authorize.map((parameter) => [parameter.name, parameter.schema.minLength])).toEqual(
      ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method'].map((name) => [name, 1]),
    );
    const form = (method: string, path: string) => operationOf({ method, path }).requestBody.content['application/x-www-form-urlencoded'].schema as Json;
    for (const [schema, required] of [
      [form('POST', '/oauth/authorize'), ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'csrf_token', 'decision']],
      [form('POST', '/oauth/token'), ['grant_type', 'client_id']],
    ] as const) {
      expect(schema.required).toEqual(required);
      for (const name of required) expect(schema.properties[name].minLength, name).toBe(1);
    }
    // Empty, each is refused as if missing.
    const query = { response_type: 'code', client_id: 'client_01JD3F4G5H6J7K8M9N0P1Q2R3S', redirect_uri: 'http://127.0.0.1:33418/callback', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' };
    for (const { name } of authorize) {
      const res = await api.anonymous.get(`/oauth/authorize?${new URLSearchParams({ ...query, [name]: '' })}`);
      expect([res.status, res.body.error.details[0].path], name).toEqual([400, name]);
    }
    const token = await api.anonymous.request('POST', '/oauth/token', { rawBody: 'grant_type=&client_id=client_01JD3F4G5H6J7K8M9N0P1Q2R3S', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([token.status, token.body]).toEqual([400, { error: 'invalid_request', error_description: 'grant_type is required' }]);
  });
});

describe('links from a create', () => {
  it('lead from POST /v1/leads to reading, changing and deleting the lead it made, by its id', () => {
    const links = document.paths['/v1/leads'].post.responses['201'].links;
    expect(Object.keys(links).sort()).toEqual(['deleteLead', 'getLead', 'updateLead']);
    expect(links.getLead).toMatchObject({ operationId: 'getLead', parameters: { leadId: '$response.body#/lead/id' } });
  });

  it('name every operation on the record a create makes, and only operations that exist', () => {
    const operationIds = new Set(routes.map((route) => route.operationId));
    for (const create of routes.filter((route) => route.method === 'POST' && route.status === 201)) {
      const below = routes.filter((route) => !route.aliasOf && new RegExp(`^${create.path.replace(/[{}]/g, '\\$&')}/\\{\\w+\\}$`).test(route.path));
      const links = operationOf(create).responses['201'].links ?? {};
      if (below.length === 0) continue;
      expect(Object.keys(links).sort(), create.operationId).toEqual(below.map((route) => route.operationId).sort());
      for (const link of Object.values(links) as { operationId: string }[]) expect(operationIds.has(link.operationId)).toBe(true);
    }
  });
});

describe('the OpenAPI document against real answers', () => {
  const document = buildDocument() as Json;
  const schemas = document.components.schemas as Record<string, Json>;

  // docs/decisions/leads-and-companies.md: optional lead fields not given answer null, {} or 0 "so every field is present";
  // the document describes answers "as parsed". A field every answer carries is required there, or generated clients
  // (and readers of the schema) must handle its absence, which never happens.
  it('requires every field that a lead and the organization always answer', async () => {
    const { client } = await api.demoOrganization();
    const lead = (await client.get('/v1/leads?limit=1')).body.leads[0] as Json;
    const organization = (await client.get('/v1/organization')).body.organization as Json;
    const notRequired = (name: string, answer: Json) =>
      Object.keys(answer)
        .filter((field) => !(schemas[name]!.required as string[] | undefined ?? []).includes(field))
        .map((field) => `${name}.${field}`);
    expect([...notRequired('Lead', lead), ...notRequired('Organization', organization)]).toEqual([]);
  });
});
