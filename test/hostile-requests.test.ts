import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler as authorizer } from '../functions/authorizer';
import { dynamo, DYNAMODB_MAX_ATTEMPTS, DYNAMODB_TIMEOUTS } from '#shared/dynamo';
import { createLocalGateway } from '../infra/local/gateway';
import { loadAuthorizer } from '../infra/local/handlers';
import { referenceRenderer } from '#shared/openapi/reference-renderer';
import { routes } from '../functions/resources';
import { countDynamoCalls } from './support/dynamo-calls';
import { useTestApi, type Client } from './support/api';
import { itemsOf } from './support/fixtures';
import { assertMatchesDocument, readBody } from './support/contract';

const api = useTestApi();

afterEach(() => vi.restoreAllMocks());

describe('names of Object.prototype in a request', () => {
  it.each(['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'])('refuses a query parameter named %s as any parameter the operation does not take', async (name) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/leads?${name}=x`);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: name, message: `${name} is not a query parameter of this operation` }]);
  });

  it('answers 401, not 500, without a key', async () => {
    const res = await api.anonymous.get('/v1/leads?constructor=x&__proto__=y');
    expect(res.status).toBe(401);
  });

  it('ignores a header named constructor on a public route', async () => {
    const res = await fetch(`${api.url}/openapi`, { headers: { constructor: 'x', tostring: 'y' } });
    expect(res.status).toBe(200);
  });
});

describe('a path id with malformed percent-encoding', () => {
  it('answers 400 with the envelope', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/leads/%E0%A4%A/activities');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message: 'Bad request', error: { status: 400, message: 'Bad request', code: 'BAD_REQUEST' } });
  });

  it('answers an inbound URL’s preflight with the same 400, which its operation documents', async () => {
    const res = await fetch(`${api.url}/v1/inbound/%FF`, { method: 'OPTIONS', headers: { origin: 'https://example.com', 'access-control-request-method': 'POST' } });
    const body = (await res.json()) as { error: { code: string } };
    expect(res.status).toBe(400);
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    assertMatchesDocument({ method: 'OPTIONS', path: '/v1/inbound/%FF', status: res.status, contentType: res.headers.get('content-type'), body });
  });
});

describe('a body sent to an action that takes no fields (rotating a secret or a token, a test delivery)', () => {
  /** The three actions, each on a record of its own kind, and the record's path to read its updatedAt from. */
  async function actions(client: Client) {
    const webhook = (await client.post('/v1/webhooks', { url: 'https://hooks.example.com/pipeline', events: ['lead.created'] })).body.webhook;
    const endpoint = (await client.post('/v1/inbound-endpoints', { name: 'Website form', source: 'WEBFORM' })).body.inboundEndpoint;
    return [
      { action: `/v1/webhooks/${webhook.id}/rotate-secret`, record: `/v1/webhooks/${webhook.id}`, key: 'webhook' },
      { action: `/v1/webhooks/${webhook.id}/test`, record: `/v1/webhooks/${webhook.id}`, key: 'webhook' },
      { action: `/v1/inbound-endpoints/${endpoint.id}/rotate`, record: `/v1/inbound-endpoints/${endpoint.id}`, key: 'inboundEndpoint' },
    ];
  }

  it('answers malformed JSON with 400 INVALID_JSON, a field with 400 naming it, and a body over 256 KB with 413, and runs nothing', async () => {
    const { client } = await api.organization();
    const all = await actions(client);
    for (const { action, record, key } of all) {
      const before = (await client.get(record)).body[key].updatedAt;
      const malformed = await client.post(action, undefined, { rawBody: '{"a":', headers: { 'content-type': 'application/json' } });
      expect(malformed.status, action).toBe(400);
      expect(malformed.body.error.code, action).toBe('INVALID_JSON');
      const withField = await client.post(action, { expiresIn: 3600 });
      expect(withField.status, action).toBe(400);
      expect(withField.body.error.details.map((detail: { path: string }) => detail.path), action).toEqual(['expiresIn']);
      const array = await client.post(action, []);
      expect(array.status, action).toBe(400);
      const large = await client.post(action, { note: 'x'.repeat(300 * 1024) });
      expect(large.status, action).toBe(413);
      expect((await client.get(record)).body[key].updatedAt, `${action} ran on a body it refused`).toBe(before);
    }
    // A test delivery's attempt is recorded before it answers: none was sent for the refused ones.
    expect((await client.get(`${all[1]!.record}/deliveries?eventType=webhook.test`)).body.totalCount).toBe(0);
  });

  it('runs with no body and with an empty object', async () => {
    const { client } = await api.organization();
    const [rotateSecret, , rotateToken] = await actions(client);
    for (const { action, record, key } of [rotateSecret!, rotateToken!]) {
      const before = (await client.get(record)).body[key].updatedAt;
      expect((await client.post(action)).status, action).toBe(200);
      expect((await client.post(action, {})).status, action).toBe(200);
      expect((await client.get(record)).body[key].updatedAt, action).not.toBe(before);
    }
  });
});

/** A local gateway on a free port whose authorizer or handlers the test replaces. */
async function gatewayWith(options: Partial<Parameters<typeof createLocalGateway>[0]>) {
  const server = createHttpServer(
    createLocalGateway({ routes, loadHandler: async () => (async () => ({ statusCode: 200, body: '{}' })) as never, loadAuthorizer, ...options }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('when the API key store cannot be read', () => {
  it('the authorizer logs the failure and fails with an error that is not "Unauthorized"', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(dynamo, 'send').mockRejectedValue(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { name: 'Error' }) as never);
    const event = { headers: { authorization: 'Bearer sp_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, methodArn: 'arn:aws:execute-api:local:0:api/prod/GET/v1/leads' };
    const failure = await authorizer(event as never).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).not.toBe('Unauthorized');
    expect(JSON.parse(String(logged.mock.calls[0]![0]))).toMatchObject({ level: 'ERROR', message: 'authorizer could not check the key' });
  });

  it('the gateway answers 503 with the envelope, not 401, and logs it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const gateway = await gatewayWith({ loadAuthorizer: async () => async () => Promise.reject(new Error('The API key store could not be read')) });
    try {
      const res = await fetch(`${gateway.url}/v1/leads`, { headers: { authorization: 'Bearer sp_live_x' } });
      expect(res.status).toBe(503);
      const body = await readBody(res);
      expect(body).toEqual({
        success: false,
        message: 'The API key could not be checked; try again',
        error: { status: 503, message: 'The API key could not be checked; try again', code: 'AUTHORIZER_UNAVAILABLE' },
      });
      // A status the operation's document does not list fails this.
      assertMatchesDocument({ method: 'GET', path: '/v1/leads', status: res.status, contentType: res.headers.get('content-type'), body });
      expect(logged.mock.calls.map((call) => JSON.parse(String(call[0])).message)).toContain('authorizer failed');
    } finally {
      await gateway.close();
    }
  });
});

describe('a hung dependency', () => {
  it('the gateway answers 504 with the envelope once the integration timeout passes', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const gateway = await gatewayWith({
      integrationTimeoutMs: 50,
      loadHandler: async () => (() => new Promise(() => undefined)) as never,
      loadAuthorizer: async () => async () => ({ principalId: 'key', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: '*' }] }, context: { organizationId: 'org_x' } }),
    });
    try {
      const res = await fetch(`${gateway.url}/v1/leads`, { headers: { authorization: 'Bearer sp_live_x' } });
      expect(res.status).toBe(504);
      const body = await readBody(res);
      expect((body as { error: unknown }).error).toEqual({ status: 504, message: 'The request took too long; try again', code: 'TIMEOUT' });
      assertMatchesDocument({ method: 'GET', path: '/v1/leads', status: res.status, contentType: res.headers.get('content-type'), body });
    } finally {
      await gateway.close();
    }
  });

  it('a DynamoDB that accepts connections and never answers fails the call after the client’s attempts instead of holding it', async () => {
    const sockets: Socket[] = [];
    let connections = 0;
    const blackHole: Server = createServer((socket) => {
      connections++;
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: `http://127.0.0.1:${(blackHole.address() as AddressInfo).port}`,
        region: 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        maxAttempts: DYNAMODB_MAX_ATTEMPTS,
        requestHandler: DYNAMODB_TIMEOUTS,
      }),
    );
    try {
      const failure = await client.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } })).catch((error: Error) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(connections).toBe(DYNAMODB_MAX_ATTEMPTS);
      expect(await dynamo.config.maxAttempts()).toBe(DYNAMODB_MAX_ATTEMPTS);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => blackHole.close(resolve));
    }
  });
});

describe('ids that are not exactly the format the API issues', () => {
  it("answers 400 for a leadId filter carrying a key fragment, instead of reading another filter's counter", async () => {
    const { client, demo } = await api.demoOrganization();
    const leadId = (demo!.leadIds as string[])[0]!;
    const res = await client.get(`/v1/inquiries?leadId=${leadId}%23SOURCE%23CALL`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toEqual({ path: 'leadId', message: 'leadId must be a lead id: lead_ followed by 26 characters' });
  });

  it.each([
    ['a lead path id', 'GET', '/v1/leads/lead_1', undefined, 'Lead not found'],
    ['a company path id', 'GET', '/v1/companies/COMPANY_01HZZZZZZZZZZZZZZZZZZZZZZZ', undefined, 'Company not found'],
    ['an inquiry path id', 'GET', '/v1/inquiries/inquiry_01HZZZZZZZZZZZZZZZZZZZZZZZ%23SOURCE', undefined, 'Inquiry not found'],
    ['a userId in a body', 'POST', '/v1/sms', { userId: 'user_#1', leadId: 'lead_01HZZZZZZZZZZZZZZZZZZZZZZZ', message: 'Hi' }, 'User not found'],
    ['a thread id in a body', 'POST', '/v1/sms', { userId: 'user_01HZZZZZZZZZZZZZZZZZZZZZZZ', leadId: 'lead_01HZZZZZZZZZZZZZZZZZZZZZZZ', message: 'Hi', messageThreadId: 'thread_1' }, 'Message thread not found'],
  ])('answers %s as an id no record has (404), reading no key', async (_, method, path, body, message) => {
    const { client } = await api.organization();
    let res: Awaited<ReturnType<typeof client.request>> | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.request(method, path, body === undefined ? {} : { body });
    });
    expect(res!.status).toBe(404);
    expect((res!.body as { message: string }).message).toBe(message);
    expect(calls).toEqual([]);
  });

  it('answers 400 naming the field for a companyId filter, which is not an id of a record read', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/leads?companyId=company_x');
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('companyId');
  });
});

describe('socials given as an array', () => {
  it('answers 400 naming socials and writes nothing', async () => {
    const { client } = await api.organization();
    for (const socials of [['@jane'], []]) {
      const res = await client.post('/v1/leads', { name: 'Jane Doe', email: 'jane@example.com', socials });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0]).toEqual({ path: 'socials', message: 'socials must be an object of network to handle, not an array' });
    }
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });
});

describe('socials holding what no other text field takes', () => {
  it('answers 400 naming the network for half a character or a control character, in a handle or a network’s name, and writes nothing', async () => {
    const { client } = await api.organization();
    const cases = [
      [{ facebook: 'jo\ud83d' }, 'socials.facebook', 'half of a character'],
      [{ x: 'a\u0000b' }, 'socials.x', 'control characters'],
      [{ 'insta\u0007gram': '@jo' }, 'socials', 'control characters'],
    ] as const;
    for (const [socials, path, says] of cases) {
      const res = await client.post('/v1/leads', { name: 'Jo Bloggs', email: 'jo@example.com', socials });
      expect(res.status, JSON.stringify(socials)).toBe(400);
      expect(res.body.error.details[0].path).toContain(path);
      expect(res.body.error.details[0].message).toContain(says);
    }
    const lead = (await client.post('/v1/leads', { name: 'Jo Bloggs', email: 'jo@example.com', socials: { facebook: ' jo.bloggs ' } })).body.lead;
    expect(lead.socials).toEqual({ facebook: 'jo.bloggs' });
    expect((await client.patch(`/v1/leads/${lead.id}`, { socials: { facebook: 'jo\ud83d' } })).status).toBe(400);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.socials).toEqual({ facebook: 'jo.bloggs' });
  });
});

describe('names as people type them', () => {
  const product = (name: string) => ({ name, tradeCategoryId: 1, pricingType: 'NONE' });

  it.each([
    ['a control character', '\u0000'],
    ['only zero-width spaces', '\u200b\u200b'],
    // Format characters (Cf) outside the Basic Multilingual Plane show nothing either: Unicode tag characters, the
    // musical symbols' beam and slur controls.
    ['only Unicode tag characters', '\u{E0054}\u{E0061}\u{E0070}'],
    ['only musical format characters', '\u{1D173}\u{1D174}'],
    ['a bell in a name', 'Tap\u0007washer'],
  ])('refuses a name of %s (400 naming it) and reserves nothing', async (_, name) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/products', product(name));
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('name');
    expect((await client.post('/v1/products', product('Tap washer'))).body.product.id).toBe(1);
  });

  it('treats names that differ only by composition, case or invisible characters as the same name (409)', async () => {
    const { client } = await api.organization();
    const cafe = await client.post('/v1/products', product('Caf\u00e9 fit-out'));
    expect(cafe.status).toBe(201);
    expect((await client.post('/v1/products', product('CAFE\u0301 FIT-OUT'))).status).toBe(409);
    expect((await client.post('/v1/products', product('Tap washer'))).status).toBe(201);
    expect((await client.post('/v1/products', product('Tap\u200bwasher'))).status).toBe(409);
    // A soft hyphen or a joiner sits inside a word: left out, not read as a space.
    expect((await client.post('/v1/products', product('Plumbing kit'))).status).toBe(201);
    expect((await client.post('/v1/products', product('Plumb\u00ading kit'))).status).toBe(409);
    expect((await client.post('/v1/products', product('Plum\u200dbing\u2060 kit'))).status).toBe(409);
    expect((await client.post('/v1/products', product('Plumb ing kit'))).status).toBe(201);
    expect((await client.post('/v1/transfers', { label: 'After\u200bhours', method: 'COLD', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'Late' })).status).toBe(201);
    expect((await client.post('/v1/transfers', { label: 'after hours', method: 'COLD', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'Late' })).status).toBe(409);
  });

  it('stores text in NFC, so a decomposed é reads back as one character', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/products', product('Cafe\u0301 fit-out'));
    expect(res.body.product.name).toBe('Caf\u00e9 fit-out');
  });

  it('keeps line breaks in longer text', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/policies', { title: 'Payment', content: 'Line one.\nLine two.\r\n\tIndented.' });
    expect(res.status).toBe(201);
    expect(res.body.policy.content).toBe('Line one.\nLine two.\r\n\tIndented.');
  });
});

describe('limits and headers every answer carries', () => {
  it('answers 413 PAYLOAD_TOO_LARGE for a body over 256 KB, before parsing it, and writes nothing', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', { name: 'Big', email: 'big@example.com', suburb: 'x'.repeat(300 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.error).toEqual({ status: 413, message: 'The request body is larger than 256 KB', code: 'PAYLOAD_TOO_LARGE' });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it('marks every answer no-store and nosniff: success, validation error, gateway error and unknown route', async () => {
    const { client } = await api.organization();
    const answers = [
      await client.get('/v1/leads'),
      await client.get('/v1/leads?limit=0'),
      await api.anonymous.get('/v1/leads'),
      await client.get('/v1/nothing-here'),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 400, 401, 404]);
    for (const res of answers) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('lets a browser cache the reference page’s script, and only that', async () => {
    const script = await fetch(`${api.url}/docs/${referenceRenderer().name}`);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${api.url}/docs`)).headers.get('cache-control')).toBe('no-store');
  });
});

describe('phone numbers are read as typed and stored in E.164; one that is no number of any plan is refused', () => {
  it.each(['+0412000111', '+614120001112345678', '0412 000', '+61 1234', '04120001112'])('refuses %s wherever a phone is taken', async (phone) => {
    const { client } = await api.organization();
    const lead = await client.post('/v1/leads', { name: 'Sam Lee', email: 'sam@example.com', phone });
    expect(lead.status).toBe(400);
    expect(lead.body.error.details[0].path).toBe('phone');
    const company = await client.post('/v1/companies', { name: 'Acme', phone });
    expect(company.status).toBe(400);
    expect(company.body.error.details[0].path).toBe('phone');
    const transfer = await client.post('/v1/transfers', { label: 'Urgent', method: 'COLD', destinationType: 'PHONE_NUMBER', destination: phone, conditions: 'Always' });
    expect(transfer.status).toBe(400);
    expect(transfer.body.error.details[0].path).toBe('destination');
    const sender = await client.patch('/v1/organization', { smsSenderId: phone });
    expect(sender.status).toBe(400);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it.each(['+61412000111', '+61 412 000 111', '0412000111', '61412000111', '(04) 1200 0111'])('stores %s as +61412000111 in an Australian organization', async (phone) => {
    const { client } = await api.organization();
    expect((await client.post('/v1/leads', { name: 'Sam Lee', email: 'sam@example.com', phone })).body.lead.phone).toBe('+61412000111');
    expect((await client.post('/v1/companies', { name: 'Acme', phone })).body.company.phone).toBe('+61412000111');
    const transfer = await client.post('/v1/transfers', { label: 'Urgent', method: 'COLD', destinationType: 'PHONE_NUMBER', destination: phone, conditions: 'Always' });
    expect(transfer.body.transfer.destination).toBe('+61412000111');
  });
});

describe('a JSON body that is not UTF-8, or nests deeper than any request', () => {
  it.each([
    ['a Latin-1 é (byte E9)', [0xe9], 'application/json; charset=iso-8859-1'],
    ['a surrogate encoded as UTF-8 (ED A0 80)', [0xed, 0xa0, 0x80], 'application/json'],
  ])('answers 400 INVALID_JSON, as JSON must be UTF-8, instead of storing U+FFFD for what was sent: %s', async (_, bytes, contentType) => {
    const { apiKey, client } = await api.organization();
    const body = Buffer.concat([Buffer.from('{"question":"Caf'), Buffer.from(bytes), Buffer.from(' opening hours?","answer":"Seven to five."}')]);
    const res = await fetch(`${api.url}/v1/faqs`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': contentType }, body });
    const parsed = (await readBody(res)) as { error?: { code?: string } };
    assertMatchesDocument({ method: 'POST', path: '/v1/faqs', status: res.status, contentType: res.headers.get('content-type'), body: parsed });
    expect(res.status, JSON.stringify(parsed)).toBe(400);
    expect(parsed.error?.code).toBe('INVALID_JSON');
    expect((await client.get('/v1/faqs')).body.totalCount).toBe(0);
  });

  it('answers valid JSON nested deeper than 64 levels with 400 naming the body, and takes 64', async () => {
    const { client } = await api.organization();
    // The body is level 1; a field holding arrays makes up the rest.
    const faq = (arrays: number) => `{"question":"Open on Sundays?","answer":"No.","x":${'['.repeat(arrays)}${']'.repeat(arrays)}}`;
    for (const rawBody of [faq(64), faq(5_000)]) {
      const res = await client.request('POST', '/v1/faqs', { rawBody, headers: { 'content-type': 'application/json' } });
      expect([res.status, res.body.error.details]).toEqual([400, [{ path: 'body', message: 'body must not nest objects and arrays more than 64 levels deep' }]]);
    }
    // 64 levels reach the schema, which names the field it does not know.
    const deepest = await client.request('POST', '/v1/faqs', { rawBody: faq(63), headers: { 'content-type': 'application/json' } });
    expect([deepest.status, deepest.body.error.details[0].path]).toEqual([400, 'x']);
    expect((await client.get('/v1/faqs')).body.totalCount).toBe(0);
  });

  it('counts nesting past a string holding an escaped quote or backslash, and none inside a string', async () => {
    const { client } = await api.organization();
    // The question before the arrays holds an escaped quote, or a backslash escaped before its closing quote.
    const faq = (question: string, arrays: number) => `{"question":"${question}","answer":"No.","x":${'['.repeat(arrays)}${']'.repeat(arrays)}}`;
    const post = (rawBody: string) => client.request('POST', '/v1/faqs', { rawBody, headers: { 'content-type': 'application/json' } });
    // As JSON text: Open \"Sundays? and Drive C:\\ (escapes of one quote and of one backslash).
    for (const question of ['Open \\"Sundays?', 'Drive C:\\\\']) {
      const res = await post(faq(question, 64));
      expect([res.status, res.body.error.details], question).toEqual([400, [{ path: 'body', message: 'body must not nest objects and arrays more than 64 levels deep' }]]);
      // One level less reaches the schema, which names the field it does not know.
      expect((await post(faq(question, 63))).body.error.details[0].path, question).toBe('x');
    }
    // Brackets in text are no nesting: an answer of 100 of them is an FAQ like any other.
    const brackets = `${'['.repeat(100)}${'{'.repeat(100)}`;
    const created = await post(`{"question":"Brackets?","answer":"${brackets}"}`);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.faq.answer).toBe(brackets);
  });
});

describe('text holding half of a character (a lone surrogate)', () => {
  it.each([
    ['a product name', '/v1/products', '{"name":"Tap\\ud800washer","tradeCategoryId":1,"pricingType":"NONE"}', 'name', '/v1/products'],
    ['an FAQ question', '/v1/faqs', '{"question":"Open on\\udc00 Sundays?","answer":"No."}', 'question', '/v1/faqs'],
    ['a lead name', '/v1/leads', '{"name":"Jo\\ud83d Smith","email":"jo@example.com"}', 'name', '/v1/leads'],
  ])('is refused in %s with 400 naming the field (as MCP refuses it in a URL), rather than stored and echoed as invalid Unicode', async (_, path, rawBody, field, list) => {
    const { client } = await api.organization();
    const res = await client.request('POST', path, { rawBody, headers: { 'content-type': 'application/json' } });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect((await client.get(list)).body.totalCount).toBe(0);
  });
});

describe('a query parameter given more than once', () => {
  it.each([
    ['status on leads', '/v1/leads?status=NEW&status=LOST', 'status'],
    ['limit on leads', '/v1/leads?limit=500&limit=1', 'limit'],
    ['type on events', '/v1/events?type=lead.created&type=lead.updated', 'type'],
    ['isActive on products', '/v1/products?isActive=true&isActive=false', 'isActive'],
  ])('answers 400 naming it instead of silently answering its last value (%s)', async (_, path, name) => {
    const { client } = await api.demoOrganization();
    const res = await client.get(path);
    expect(res.status, `${path} answered ${res.status}`).toBe(400);
    expect(res.body.error.details.map((detail: { path: string }) => detail.path)).toContain(name);
  });
});

describe('an inbound post’s sender id headers', () => {
  it.each([['Idempotency-Key'], ['webhook-id']])('a %s longer than the document allows is refused naming that header, not externalInquiryId (a field the sender never sent)', async (header) => {
    const { client } = await api.organization();
    const { url } = (await client.post('/v1/inbound-endpoints', { name: 'Website contact form', source: 'WEBFORM' })).body.inboundEndpoint;
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', [header]: 'k'.repeat(201) }, body: 'email=ivy@example.com' });
    const parsed = (await readBody(res)) as { error: { details: { path: string }[] } };
    assertMatchesDocument({ method: 'POST', path: new URL(url).pathname, status: res.status, contentType: res.headers.get('content-type'), body: parsed });
    expect(res.status).toBe(400);
    expect(parsed.error.details[0]!.path).toBe(header);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
  });
});

describe('integer ids written with leading zeros', () => {
  it.each([
    ['GET', '/v1/products/01'],
    ['GET', '/v1/faqs/001'],
    ['DELETE', '/v1/policies/0001'],
  ])('are ids the API never issues: %s %s answers 404, as an id that cannot exist', async (method, path) => {
    const { client, organizationId } = await api.demoOrganization();
    const before = await itemsOf(organizationId);
    const res = await client.request(method, path);
    expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(404);
    expect(await itemsOf(organizationId)).toEqual(before);
  });
});

describe('cursors of lists filtered in the function, and of sync', () => {
  // test/cursors.test.ts holds leads and inquiries to this; these lists filter a whole read partition in the
  // function, or bind the cursor to a time, where nothing in the DynamoDB key would tell the filters apart.
  it.each([
    ['/v1/products?isActive=true', '/v1/products?pricingType=FIXED'],
    ['/v1/products?', '/v1/products?tradeCategoryId=1'],
    ['/v1/services?isActive=true', '/v1/services?'],
    // Whether a demo rule is available now depends on the clock, so the cursor is taken from the filter that does not.
    ['/v1/transfers?isEnabled=true', '/v1/transfers?availableNow=false'],
    ['/v1/appointments?from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z', '/v1/appointments?from=2021-01-01T00:00:00Z&to=2030-01-01T00:00:00Z'],
    ['/v1/leads?updatedSince=2020-01-01T00:00:00Z', '/v1/leads?updatedSince=2021-01-01T00:00:00Z'],
    ['/v1/leads?q=o', '/v1/leads?status=NEW'],
  ])('a cursor answered for %s answers 400 INVALID_CURSOR under %s', async (from, under) => {
    const { client } = await api.demoOrganization();
    const { nextCursor } = (await client.get(`${from}&limit=1`)).body;
    expect(nextCursor).toEqual(expect.any(String));
    const res = await client.get(`${under}&limit=1&cursor=${encodeURIComponent(nextCursor)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_CURSOR', details: [{ path: 'cursor' }] });
  });
});
