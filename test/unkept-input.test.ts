import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from './support/api';

const api = useTestApi();

/**
 * What the API cannot keep as sent, it refuses, naming the field, and writes nothing: a 2xx never drops part of what
 * was sent, and a URL or a header never turns a tool's argument into the server's own fault.
 */

/** `tools/call` of one tool posted to /mcp as raw JSON, so a lone surrogate or a line break reaches it as sent. */
async function callToolRaw(client: Client, name: string, rawArguments: string) {
  const res = await client.request('POST', '/mcp', {
    rawBody: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${rawArguments}}}`,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  expect(res.status).toBe(200);
  expect(res.body.error, JSON.stringify(res.body)).toBeUndefined();
  expect(res.body.result.isError).toBe(true);
  return JSON.parse(res.body.result.content[0].text).error as { status: number; code?: string; details?: { path: string; message: string }[] };
}

async function webform(client: Client, settings: Record<string, unknown> = {}) {
  const res = await client.post('/v1/inbound-endpoints', { name: 'Website contact form', source: 'WEBFORM', ...settings });
  expect(res.status).toBe(201);
  return res.body.inboundEndpoint as { id: string; url: string };
}

describe('maps with a key a record would drop (constructor, prototype)', () => {
  it('refuses a lead’s socials naming such a network, naming socials, and creates nothing', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', { name: 'Jane Doe', email: 'jane@example.com', socials: { prototype: '@jane.builds', facebook: 'jane.doe' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'socials', message: 'socials must not have a key named __proto__, constructor or prototype' }]);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it('refuses an inbound endpoint’s fieldMap naming such a form field, and a PATCH of one leaves the map as it was', async () => {
    const { client } = await api.organization();
    const created = await client.post('/v1/inbound-endpoints', { name: 'Builder form', source: 'WEBFORM', fieldMap: { constructor: 'email', full_name: 'name' } });
    expect([created.status, created.body.error.details]).toEqual([400, [{ path: 'fieldMap', message: 'fieldMap must not have a key named __proto__, constructor or prototype' }]]);
    const form = await webform(client, { fieldMap: { your_email: 'email' } });
    expect((await client.patch(`/v1/inbound-endpoints/${form.id}`, { fieldMap: { prototype: 'email' } })).status).toBe(400);
    expect((await client.get(`/v1/inbound-endpoints/${form.id}`)).body.inboundEndpoint.fieldMap).toEqual({ your_email: 'email' });
  });
});

describe('an inbound JSON post’s externalInquiryId', () => {
  it('refuses one that is neither text nor an integer, naming it, and records nothing', async () => {
    const { client } = await api.organization();
    const form = await webform(client);
    const res = await fetch(form.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ivy@example.com', externalInquiryId: { entry: 1 } }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: unknown } }).error.details).toEqual([{ path: 'externalInquiryId', message: 'externalInquiryId must be a string or an integer' }]);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
  });
});

describe('a lead’s name split into first and last names', () => {
  it('refuses, naming name, one whose last name would be longer than lastName may be, so no lead holds names the API would not take back', async () => {
    const { client } = await api.organization();
    // Within name's 200 characters; the split would give a last name of 150, where lastName takes at most 100.
    const res = await client.post('/v1/leads', { name: `Jo ${'Vandenberghe-'.repeat(11)}Smit`, email: 'jo@example.com' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'name', message: 'name must split into names of at most 100 characters each: its lastName would have 147' }]);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });
});

describe('MCP tool arguments a URL or a header cannot carry', () => {
  it('refuses a path argument with a lone surrogate, naming it, rather than failing as the server (URI malformed)', async () => {
    const { client } = await api.organization();
    const error = await callToolRaw(client, 'get_lead', '{"leadId":"lead_\\ud800"}');
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'leadId', message: 'leadId must be text a URL can carry: it holds half of a character (a lone surrogate)' }] });
  });

  it.each([
    ['a line break', '"retry-1\\r\\nx-injected: 1"'],
    ['a Cyrillic word, which no header carries', '"ключ-1"'],
    ['a control character', '"retry\\u0001one"'],
    ['a DEL character', '"retry\\u007fone"'],
    ['a space', '"retry one"'],
  ])('refuses an idempotencyKey with %s by the API’s own rule, naming it, and writes nothing', async (_, key) => {
    const { client } = await api.organization();
    const error = await callToolRaw(client, 'create_faq', `{"question":"Do you charge a call-out fee?","answer":"Yes, $89.","idempotencyKey":${key}}`);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'idempotencyKey', message: 'idempotencyKey must be 1 to 255 printable characters without spaces' }] });
    expect((await client.get('/v1/faqs')).body.totalCount).toBe(0);
  });
});
