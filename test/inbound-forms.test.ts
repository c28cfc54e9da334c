import { describe, expect, it } from 'vitest';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '../shared/http/gateway-responses';
import { buildDocument } from '../functions/meta/document';
import { useTestApi, type Client } from './support/api';
import { assertMatchesDocument, readBody, validatorAt } from './support/contract';

const api = useTestApi();
const document = buildDocument() as unknown as { paths: Record<string, Record<string, any>> };
const INBOUND = '/v1/inbound/{inboundEndpointId}';

interface Endpoint {
  id: string;
  url: string;
  redirectUrl: string | null;
  errorRedirectUrl: string | null;
  allowedOrigins: string[];
}

async function endpoint(client: Client, settings: Record<string, unknown> = {}): Promise<Endpoint> {
  const res = await client.post('/v1/inbound-endpoints', { name: 'Website contact form', source: 'WEBFORM', ...settings });
  expect(res.status).toBe(201);
  return res.body.inboundEndpoint;
}

/** What a browser does with an HTML form: posts it, and does not follow the answer's redirect here, so the test sees it. */
const postForm = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** A multipart/form-data body written by hand, CRLF line ends, so the boundary and each part are exactly as given. */
function multipart(boundary: string, parts: Array<{ disposition: string; type?: string; value: string }>): string {
  const lines = parts.flatMap(({ disposition, type, value }) => [`--${boundary}`, `Content-Disposition: form-data; ${disposition}`, ...(type ? [`Content-Type: ${type}`] : []), '', value]);
  return [...lines, `--${boundary}--`, ''].join('\r\n');
}

const postMultipart = (url: string, contentType: string, body: string) => fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': contentType }, body });

const preflight = (url: string, origin: string) =>
  fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });

const inquiryCount = async (client: Client) => (await client.get('/v1/inquiries')).body.totalCount as number;

const CORS_HEADER_NAMES = ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age', 'vary'];
const corsHeadersOf = (res: Response) => Object.fromEntries(CORS_HEADER_NAMES.flatMap((name) => (res.headers.has(name) ? [[name, res.headers.get(name)]] : [])));

describe('inbound endpoint settings for browsers: redirectUrl, errorRedirectUrl, allowedOrigins', () => {
  it('creates, reads, lists and changes them, and an endpoint without them has none', async () => {
    const { client } = await api.organization();
    const plain = await endpoint(client);
    expect(plain).toMatchObject({ redirectUrl: null, errorRedirectUrl: null, allowedOrigins: [] });
    const created = await endpoint(client, { redirectUrl: 'https://plumbing.example.com/thanks?from=contact', errorRedirectUrl: 'https://plumbing.example.com/oops', allowedOrigins: ['https://plumbing.example.com', 'https://shop.example.com:8443'] });
    const settings = { redirectUrl: 'https://plumbing.example.com/thanks?from=contact', errorRedirectUrl: 'https://plumbing.example.com/oops', allowedOrigins: ['https://plumbing.example.com', 'https://shop.example.com:8443'] };
    expect(created).toMatchObject(settings);
    expect((await client.get(`/v1/inbound-endpoints/${created.id}`)).body.inboundEndpoint).toMatchObject(settings);
    expect((await client.get('/v1/inbound-endpoints')).body.inboundEndpoints.find((listed: Endpoint) => listed.id === created.id)).toMatchObject(settings);

    const changed = await client.patch(`/v1/inbound-endpoints/${created.id}`, { redirectUrl: 'https://plumbing.example.com', errorRedirectUrl: null, allowedOrigins: [] });
    expect(changed.status).toBe(200);
    // Written as the URL parser writes it: what the visitor's browser is sent to.
    expect(changed.body.inboundEndpoint).toMatchObject({ redirectUrl: 'https://plumbing.example.com/', errorRedirectUrl: null, allowedOrigins: [] });
    expect((await client.get(`/v1/inbound-endpoints/${created.id}`)).body).toEqual(changed.body);
  });

  it.each([
    ['an http redirectUrl', { redirectUrl: 'http://plumbing.example.com/thanks' }, 'redirectUrl'],
    ['a redirectUrl that is not a URL', { redirectUrl: 'thanks.html' }, 'redirectUrl'],
    ['a javascript: errorRedirectUrl', { errorRedirectUrl: 'javascript:alert(1)' }, 'errorRedirectUrl'],
    ['an origin with a path', { allowedOrigins: ['https://plumbing.example.com/contact'] }, 'allowedOrigins.0'],
    ['an origin with a trailing slash', { allowedOrigins: ['https://plumbing.example.com/'] }, 'allowedOrigins.0'],
    ['an http origin', { allowedOrigins: ['https://a.example.com', 'http://plumbing.example.com'] }, 'allowedOrigins.1'],
    ['an origin in capitals', { allowedOrigins: ['https://Plumbing.example.com'] }, 'allowedOrigins.0'],
    ['an origin with its default port', { allowedOrigins: ['https://plumbing.example.com:443'] }, 'allowedOrigins.0'],
    ['an origin twice', { allowedOrigins: ['https://plumbing.example.com', 'https://plumbing.example.com'] }, 'allowedOrigins'],
    ['allowedOrigins that is not an array', { allowedOrigins: 'https://plumbing.example.com' }, 'allowedOrigins'],
  ])('answers 400 for %s on create and on PATCH, naming the field, and changes nothing', async (_, settings, field) => {
    const { client } = await api.organization();
    const refused = await client.post('/v1/inbound-endpoints', { name: 'Contact', source: 'WEBFORM', ...settings });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe(field);
    const created = await endpoint(client);
    const patched = await client.patch(`/v1/inbound-endpoints/${created.id}`, settings);
    expect(patched.status).toBe(400);
    expect(patched.body.error.details[0].path).toBe(field);
    expect((await client.get('/v1/inbound-endpoints')).body.inboundEndpoints).toEqual([expect.objectContaining({ id: created.id, redirectUrl: null, errorRedirectUrl: null, allowedOrigins: [] })]);
  });
});

describe('a form post to an endpoint with redirectUrl', () => {
  it('answers 303 to redirectUrl with inquiryId added to the query it has, before its fragment, and records the inquiry', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { redirectUrl: 'https://plumbing.example.com/thanks?from=contact&lang=en#top' });
    const res = await postForm(created.url, { name: 'Mia Wong', email: 'mia@example.com', message: 'The hot water system is leaking' });
    expect(res.status).toBe(303);
    expect(await res.text()).toBe('');
    const location = res.headers.get('location')!;
    const inquiryId = /inquiryId=(inquiry_[0-9A-Z]{26})/.exec(location)?.[1];
    expect(location).toBe(`https://plumbing.example.com/thanks?from=contact&lang=en&inquiryId=${inquiryId}#top`);
    const inquiry = await client.get(`/v1/inquiries/${inquiryId}`);
    expect(inquiry.status).toBe(200);
    expect(inquiry.body).toMatchObject({ source: 'WEBFORM', summary: 'The hot water system is leaking' });
  });

  it('starts the query with inquiryId when redirectUrl has none, and sends a repeat of the form to the first inquiry', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { redirectUrl: 'https://plumbing.example.com/thanks' });
    const fields = { email: 'leo@example.com', externalInquiryId: 'entry-4471' };
    const first = await postForm(created.url, fields);
    const again = await postForm(created.url, fields);
    expect(first.headers.get('location')).toMatch(/^https:\/\/plumbing\.example\.com\/thanks\?inquiryId=inquiry_[0-9A-Z]{26}$/);
    expect([first.status, again.status]).toEqual([303, 303]);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await inquiryCount(client)).toBe(1);
  });

  it('answers a JSON post with JSON as before: 201 and the inquiry, no redirect', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { redirectUrl: 'https://plumbing.example.com/thanks', errorRedirectUrl: 'https://plumbing.example.com/oops' });
    const res = await postJson(created.url, { email: 'ana@example.com', message: 'New tap please' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBeNull();
    expect(((await res.json()) as { inquiry: { source: string } }).inquiry.source).toBe('WEBFORM');
    const refused = await postJson(created.url, { name: 'No Contact' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect(await refused.json()).toMatchObject({ success: false, error: { status: 400, code: 'VALIDATION_ERROR' } });
  });

  it('answers a refused form 303 to errorRedirectUrl with error=<code>, recording nothing; without errorRedirectUrl, the JSON error', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { redirectUrl: 'https://plumbing.example.com/thanks', errorRedirectUrl: 'https://plumbing.example.com/contact?form=quote' });
    const refused = await postForm(created.url, { name: 'No Contact', message: 'Call me' });
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('https://plumbing.example.com/contact?form=quote&error=VALIDATION_ERROR');
    const tooLarge = await postForm(created.url, { email: 'big@example.com', message: 'x'.repeat(300 * 1024) });
    expect(tooLarge.headers.get('location')).toBe('https://plumbing.example.com/contact?form=quote&error=PAYLOAD_TOO_LARGE');
    expect(await inquiryCount(client)).toBe(0);

    const withoutErrorPage = await endpoint(client, { redirectUrl: 'https://plumbing.example.com/thanks' });
    const answered = await postForm(withoutErrorPage.url, { name: 'No Contact' });
    expect(answered.status).toBe(400);
    expect(await answered.json()).toMatchObject({ success: false, error: { status: 400, code: 'VALIDATION_ERROR' } });
  });

  it('never redirects a 401: a wrong token answers as an unknown endpoint does', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { redirectUrl: 'https://plumbing.example.com/thanks', errorRedirectUrl: 'https://plumbing.example.com/oops' });
    const wrongToken = await postForm(created.url.replace(/token=.*$/, 'token=inb_wrong'), { email: 'mia@example.com' });
    const unknown = await postForm(created.url.replace(created.id, 'inbound_01HZZZZZZZZZZZZZZZZZZZZZZZ'), { email: 'mia@example.com' });
    for (const res of [wrongToken, unknown]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.json()).toEqual(gatewayResponseBody(GATEWAY_RESPONSES.UNAUTHORIZED));
    }
    expect(await inquiryCount(client)).toBe(0);
  });
});

describe('a multipart/form-data form post', () => {
  it('records the text fields of a body with a quoted boundary, keeping unicode values as typed', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { fieldMap: { full_name: 'name' } });
    // A space and a colon make the boundary a quoted-string (RFC 2045 tspecials).
    const boundary = 'form boundary:7MA4YWxkTrZu0gW';
    const body = multipart(boundary, [
      { disposition: 'name="full_name"', value: 'Zoë Ångström' },
      { disposition: 'name="email"', value: 'zoe@example.com' },
      { disposition: 'name="message"', type: 'text/plain; charset=UTF-8', value: 'Leak under the sink 🚿 — 水漏れ\r\nsecond line' },
      // An unused file input: browsers post it with an empty filename and no content.
      { disposition: 'name="photo"; filename=""', type: 'application/octet-stream', value: '' },
    ]);
    const res = await postMultipart(created.url, `multipart/form-data; boundary="${boundary}"`, body);
    expect(res.status).toBe(201);
    const { inquiry } = (await res.json()) as { inquiry: { id: string; leadId: string } };
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead).toMatchObject({ firstName: 'Zoë', lastName: 'Ångström', email: 'zoe@example.com' });
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.fields).toEqual([
      { name: 'full_name', label: 'full_name', value: 'Zoë Ångström' },
      { name: 'email', label: 'email', value: 'zoe@example.com' },
      { name: 'message', label: 'message', value: 'Leak under the sink 🚿 — 水漏れ\r\nsecond line' },
    ]);
  });

  it('records what fetch posts for a FormData, and redirects it as any form', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { redirectUrl: 'https://plumbing.example.com/thanks' });
    const form = new FormData();
    form.append('email', 'sam@example.com');
    form.append('name', 'Sam "Sparky" Lee');
    form.append('message', 'Switchboard quote, façade lights');
    const res = await fetch(created.url, { method: 'POST', redirect: 'manual', body: form });
    expect(res.status).toBe(303);
    const inquiryId = new URL(res.headers.get('location')!).searchParams.get('inquiryId');
    expect((await client.get(`/v1/inquiries/${inquiryId}`)).body).toMatchObject({ summary: 'Switchboard quote, façade lights' });
  });

  it('answers 415 with the envelope for a file, recording nothing; with errorRedirectUrl, 303 with error=UNSUPPORTED_MEDIA_TYPE', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const boundary = 'X-BOUNDARY-91';
    const body = multipart(boundary, [
      { disposition: 'name="email"', value: 'mia@example.com' },
      { disposition: 'name="photo"; filename="leak.jpg"', type: 'image/jpeg', value: '\u00ff\u00d8\u00ff\u00e0 not really a jpeg' },
    ]);
    const res = await postMultipart(created.url, `multipart/form-data; boundary=${boundary}`, body);
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ success: false, message: expect.stringContaining('photo'), error: { status: 415, message: expect.stringContaining('photo'), code: 'UNSUPPORTED_MEDIA_TYPE' } });

    await client.patch(`/v1/inbound-endpoints/${created.id}`, { errorRedirectUrl: 'https://plumbing.example.com/oops' });
    const redirected = await postMultipart(created.url, `multipart/form-data; boundary=${boundary}`, body);
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get('location')).toBe('https://plumbing.example.com/oops?error=UNSUPPORTED_MEDIA_TYPE');
    expect(await inquiryCount(client)).toBe(0);
  });

  it.each([
    ['no boundary', 'multipart/form-data', multipart('b1', [{ disposition: 'name="email"', value: 'mia@example.com' }])],
    ['no closing delimiter', 'multipart/form-data; boundary=b1', '--b1\r\nContent-Disposition: form-data; name="email"\r\n\r\nmia@example.com\r\n'],
    ['a part without a name', 'multipart/form-data; boundary=b1', multipart('b1', [{ disposition: 'filename=""', value: 'x' }])],
    ['another boundary than the header’s', 'multipart/form-data; boundary=b2', multipart('b1', [{ disposition: 'name="email"', value: 'mia@example.com' }])],
  ])('answers 400 INVALID_MULTIPART for %s, recording nothing', async (_, contentType, body) => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const res = await postMultipart(created.url, contentType, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error: { status: 400, code: 'INVALID_MULTIPART' } });
    expect(await inquiryCount(client)).toBe(0);
  });
});

describe('CORS for JSON posts from an endpoint’s allowedOrigins', () => {
  const origin = 'https://shop.example.com';

  it('answers the preflight of an allowed origin with 204 and the CORS headers', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { allowedOrigins: ['https://plumbing.example.com', origin] });
    const res = await preflight(created.url, origin);
    expect(res.status).toBe(204);
    expect(corsHeadersOf(res)).toEqual({
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'Content-Type, Idempotency-Key',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
    // The preflight is an operation of the document, held to it as every other answer is, with these headers declared.
    assertMatchesDocument({ method: 'OPTIONS', path: new URL(created.url).pathname, status: res.status, contentType: res.headers.get('content-type'), body: await readBody(res) });
    expect(Object.keys(document.paths[INBOUND]!.options.responses['204'].headers).map((name) => name.toLowerCase()).sort()).toEqual([...CORS_HEADER_NAMES].sort());
  });

  // Each is what a comparison looser than equality would let in: the origin's prefix (startsWith, includes) the first
  // and the port; a host's suffix (endsWith on the host) the next two, the scheme and the port; a prefix of it the fourth.
  it.each([
    ['that starts with it, on another domain', 'https://shop.example.com.evil.net'],
    ['whose host ends with its host', 'https://evil-shop.example.com'],
    ['on a subdomain of it', 'https://www.shop.example.com'],
    ['that it starts with', 'https://shop.example.co'],
    ['differing only in its last character', 'https://shop.example.con'],
    ['differing only in its port', 'https://shop.example.com:8443'],
    ['with http', 'http://shop.example.com'],
    ['null (a sandboxed page)', 'null'],
  ])('gives an origin %s no CORS headers, on the preflight or the post', async (_, other) => {
    const { client } = await api.organization();
    const created = await endpoint(client, { allowedOrigins: [origin] });
    const res = await preflight(created.url, other);
    expect(res.status).toBe(204);
    expect(corsHeadersOf(res)).toEqual({});
    const post = await postJson(created.url, { email: 'mia@example.com' }, { origin: other });
    expect(post.status).toBe(201);
    expect(corsHeadersOf(post)).toEqual({});
  });

  it('puts Access-Control-Allow-Origin and Vary: Origin on the post’s answer for an allowed origin, an error’s too', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { allowedOrigins: [origin] });
    const post = await postJson(created.url, { email: 'mia@example.com', message: 'Quote for a new tap' }, { origin });
    expect(post.status).toBe(201);
    expect(corsHeadersOf(post)).toEqual({ 'access-control-allow-origin': origin, vary: 'Origin' });
    const refused = await postJson(created.url, { name: 'No Contact' }, { origin });
    expect(refused.status).toBe(400);
    expect(corsHeadersOf(refused)).toEqual({ 'access-control-allow-origin': origin, vary: 'Origin' });
  });

  it('answers no CORS headers without allowedOrigins, as before', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const res = await preflight(created.url, origin);
    expect(res.status).toBe(204);
    expect(corsHeadersOf(res)).toEqual({});
    const post = await postJson(created.url, { email: 'mia@example.com' }, { origin });
    expect(post.status).toBe(201);
    expect(corsHeadersOf(post)).toEqual({});
  });

  it('answers a preflight with a wrong token, or none, exactly as one for an unknown endpoint: 401, no CORS headers', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { allowedOrigins: [origin] });
    const answers = [
      await preflight(created.url.replace(/token=.*$/, 'token=inb_wrong'), origin),
      await preflight(created.url.replace(/\?token=.*$/, ''), origin),
      await preflight(created.url.replace(created.id, 'inbound_01HZZZZZZZZZZZZZZZZZZZZZZZ'), origin),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(corsHeadersOf(res)).toEqual({});
      const body = await readBody(res);
      expect(body).toEqual(gatewayResponseBody(GATEWAY_RESPONSES.UNAUTHORIZED));
      assertMatchesDocument({ method: 'OPTIONS', path: new URL(created.url).pathname, status: res.status, contentType: res.headers.get('content-type'), body });
    }
  });
});

describe('POST /v1/inbound/{inboundEndpointId} in the document, as a generated client sees it', () => {
  const operation = () => document.paths[INBOUND]!.post;
  const accepts = (mediaType: string, body: unknown) => validatorAt(`/paths/${INBOUND.replace(/\//g, '~1')}/post/requestBody/content/${mediaType.replace('/', '~1')}/schema`)(body);

  it('describes the body in each media type the API records an inquiry from, and each body posted here is one it describes', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const json = { email: 'ava@example.com', message: 'Quote for a new tap' };
    const form = { email: 'leo@example.com', message: 'Blocked drain' };
    const boundary = 'inbound-boundary';
    const posts = [
      await postJson(created.url, json),
      await postForm(created.url, form),
      await postMultipart(created.url, `multipart/form-data; boundary=${boundary}`, multipart(boundary, [{ disposition: 'name="email"', value: 'mia@example.com' }])),
    ];
    expect(posts.map((res) => res.status)).toEqual([201, 201, 201]);
    // Without a requestBody, openapi-typescript and @hey-api/openapi-ts type the body as `never`: no generated client can post.
    expect(Object.keys(operation().requestBody.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
    expect([accepts('application/json', json), accepts('application/x-www-form-urlencoded', form), accepts('multipart/form-data', { email: 'mia@example.com' })]).toEqual([true, true, true]);
    // A form's fields are text: a nested value is JSON's only.
    expect(accepts('application/x-www-form-urlencoded', { ...form, lead: { email: 'leo@example.com' } })).toBe(false);
  });

  it('declares the headers that authenticate a post, deduplicate it or make it a browser’s: a repeated Idempotency-Key answers 200 with the first inquiry', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const post = () => postJson(created.url, { email: 'ava@example.com', message: 'Quote for a new tap' }, { 'Idempotency-Key': 'form-submission-1' });
    const first = await post();
    const repeat = await post();
    expect([first.status, repeat.status]).toEqual([201, 200]);
    expect(((await repeat.json()) as { inquiry: { id: string } }).inquiry.id).toBe(((await first.json()) as { inquiry: { id: string } }).inquiry.id);
    const headers = (operation().parameters as Array<{ in: string; name: string }>).filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name.toLowerCase());
    expect(headers.sort()).toEqual(['idempotency-key', 'origin', 'webhook-id', 'webhook-signature', 'webhook-timestamp', 'x-retell-signature', 'x-vapi-secret']);
  });
});
