import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../functions/resources';
import type { HttpMethod } from '#shared/routes/route';
import { useTestApi, type Client } from './support/api';
import { created, createProduct, fixedProduct } from './support/fixtures';

const api = useTestApi();
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Each path of the route table with the methods it takes, and a path to ask it at. */
const paths = [...new Set(routes.map((route) => route.path))].map((template) => ({
  template,
  // The method is refused before any id is read, so any value stands for a parameter.
  path: template.replace(/\{\w+\}/g, 'x1'),
  methods: routes.filter((route) => route.path === template).map((route) => route.method),
}));

describe('a known path asked with a method it does not take', () => {
  let client: Client;
  beforeAll(async () => {
    client = (await api.organization()).client;
  });

  it.each(paths.flatMap(({ template, path, methods }) => METHODS.filter((method) => !methods.includes(method)).map((method) => [method, template, path, methods] as const)))(
    '%s %s answers 405 with the methods it takes in Allow, key or no key',
    async (method, _template, path, methods) => {
      for (const caller of [client, api.anonymous]) {
        const res = await caller.request(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe([...new Set(methods)].sort().join(', '));
        expect(res.body).toEqual({ success: false, message: expect.stringContaining('answers'), error: { status: 405, message: res.body.message, code: 'METHOD_NOT_ALLOWED' } });
      }
    },
  );

  it('takes the literal path over a parameter, as API Gateway does: GET /v1/products/batch is 405, not a product named batch', async () => {
    const res = await client.get('/v1/products/batch');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('PATCH');
  });

  it('still answers 404 for a path no route has', async () => {
    expect((await client.get('/v1/nowhere')).status).toBe(404);
    expect((await client.request('DELETE', '/v1/leads/lead_1/nowhere')).status).toBe(404);
  });
});

describe('PATCH wherever the spec names PUT', () => {
  it('lists a PATCH alias for every PUT, on the same path and schemas', () => {
    const puts = routes.filter((route) => route.method === 'PUT');
    // The specification's PUTs are all there; a resource added later may bring its own.
    expect(puts.map((route) => route.path)).toEqual(expect.arrayContaining(['/v1/companies/{companyId}', '/v1/companies/{companyId}/notes/{noteId}', '/v1/faqs/{faqId}', '/v1/policies/{policyId}', '/v1/products/{productId}', '/v1/transfers/{transferId}', '/v1/webhooks/{webhookId}']));
    for (const put of puts) {
      const alias = routes.find((route) => route.aliasOf === put.operationId);
      expect(alias, put.operationId).toMatchObject({ method: 'PATCH', path: put.path, resource: put.resource, request: put.request, response: put.response });
    }
  });

  it('changes only the fields sent, as PUT does, and answers the same body', async () => {
    const { client } = await api.organization();
    const product = await createProduct(client, fixedProduct('Tap washer', 120));
    const patched = await client.patch(`/v1/products/${product.id}`, { price: 135 });
    expect(patched.status).toBe(200);
    expect(patched.body.product).toMatchObject({ id: product.id, name: 'Tap washer', price: 135 });
    const put = await client.put(`/v1/products/${product.id}`, { name: 'Tap washer kit' });
    expect(put.body.product).toMatchObject({ name: 'Tap washer kit', price: 135 });

    const company = await created(client, '/v1/companies', 'company', { name: 'Harbourside Strata' });
    const renamed = await client.patch(`/v1/companies/${company.id}`, { phone: '+61299551299' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.company).toMatchObject({ name: 'Harbourside Strata', phone: '+61299551299' });
  });

  it('honours Idempotency-Key on the PATCH (a retry replays the first answer) and ignores it on the PUT, as the document says', async () => {
    const { client } = await api.organization();
    const policy = (await client.post('/v1/policies', { title: 'Call-out fee', content: '$99.' })).body.policy;
    const headers = { 'idempotency-key': `patch-${policy.id}` };
    const first = await client.patch(`/v1/policies/${policy.id}`, { content: '$120.' }, { headers });
    await client.put(`/v1/policies/${policy.id}`, { content: '$150.' });
    const replayed = await client.patch(`/v1/policies/${policy.id}`, { content: '$120.' }, { headers });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(first.body);
    expect((await client.get('/v1/policies')).body.policies[0].content).toBe('$150.');

    const putHeaders = { 'idempotency-key': `put-${policy.id}` };
    await client.put(`/v1/policies/${policy.id}`, { content: '$170.' }, { headers: putHeaders });
    const again = await client.put(`/v1/policies/${policy.id}`, { content: '$170.' }, { headers: putHeaders });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });
});
