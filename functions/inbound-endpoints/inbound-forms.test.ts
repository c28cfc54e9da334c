import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { inboundEndpointKeys } from './entity';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { webhookSettings } from '../webhooks/settings';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '#shared/http/gateway-responses';
import { buildDocument } from '../meta/document';
import { useTestApi, type Client } from '../../test/support/api';
import { assertMatchesDocument, readBody, validatorAt } from '../../test/support/contract';

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

describe('pages on this machine, under npm start only', () => {
  const LOCAL = { redirectUrl: 'http://localhost:3000/thanks', errorRedirectUrl: 'http://127.0.0.1:8080/oops', allowedOrigins: ['http://localhost:3000', 'http://[::1]:5173'] };

  it('takes http://localhost, 127.0.0.1 and [::1] redirects and origins locally, redirects a form there, and gives a local page CORS headers', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, LOCAL);
    expect(created).toMatchObject({ redirectUrl: 'http://localhost:3000/thanks', errorRedirectUrl: 'http://127.0.0.1:8080/oops', allowedOrigins: LOCAL.allowedOrigins });
    const posted = await postForm(created.url, { email: 'mia@example.com' });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toMatch(/^http:\/\/localhost:3000\/thanks\?inquiryId=inquiry_[0-9A-Z]{26}$/);
    const refused = await postForm(created.url, { name: 'No Contact' });
    expect(refused.headers.get('location')).toBe('http://127.0.0.1:8080/oops?error=VALIDATION_ERROR');
    const fromPage = await postJson(created.url, { email: 'leo@example.com' }, { origin: 'http://localhost:3000' });
    expect(fromPage.status).toBe(201);
    expect(fromPage.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
  });

  it.each([
    ['an http redirectUrl on another host', { redirectUrl: 'http://plumbing.example.com/thanks' }, 'redirectUrl'],
    ['an http redirectUrl on a host that starts with localhost', { redirectUrl: 'http://localhost.example.com/thanks' }, 'redirectUrl'],
    ['an http origin on a private address', { allowedOrigins: ['http://192.168.1.20:3000'] }, 'allowedOrigins.0'],
  ])('still refuses %s locally, with 400 naming the field', async (_, settings, field) => {
    const { client } = await api.organization();
    const refused = await client.post('/v1/inbound-endpoints', { name: 'Contact', source: 'WEBFORM', ...settings });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe(field);
  });

  describe('deployed', () => {
    afterEach(() => {
      webhookSettings.allowPrivateUrls = true;
    });

    it.each([
      ['redirectUrl', { redirectUrl: LOCAL.redirectUrl }],
      ['errorRedirectUrl', { errorRedirectUrl: LOCAL.errorRedirectUrl }],
      ['allowedOrigins.0', { allowedOrigins: ['http://localhost:3000'] }],
      ['allowedOrigins.0', { allowedOrigins: ['http://[::1]:5173'] }],
    ])('refuses a loopback %s with 400, on create and PATCH, as webhooks refuse loopback receivers', async (field, settings) => {
      const { client } = await api.organization();
      const created = await endpoint(client);
      webhookSettings.allowPrivateUrls = false;
      const refused = await client.post('/v1/inbound-endpoints', { name: 'Contact', source: 'WEBFORM', ...settings });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0].path).toBe(field);
      const patched = await client.patch(`/v1/inbound-endpoints/${created.id}`, settings);
      expect(patched.status).toBe(400);
      expect(patched.body.error.details[0].path).toBe(field);
    });
  });
});

describe('enforceOrigin: posts only from the pages of allowedOrigins', () => {
  const SITE = 'https://plumbing.example.com';

  it('is off unless set: a post from any origin, or none, is recorded', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { allowedOrigins: [SITE] });
    expect(created).toMatchObject({ enforceOrigin: false });
    expect((await postJson(created.url, { email: 'a@example.com' }, { origin: 'https://elsewhere.example.net' })).status).toBe(201);
    expect((await postForm(created.url, { email: 'b@example.com' })).status).toBe(201);
  });

  it('records a post from an allowed page, and refuses another origin, an origin differing only in its port, and no Origin with 403 ORIGIN_NOT_ALLOWED, recording nothing', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { allowedOrigins: [SITE], enforceOrigin: true });
    expect(created).toMatchObject({ enforceOrigin: true });
    for (const origin of ['https://elsewhere.example.net', 'https://plumbing.example.com:8443', 'https://plumbing.example.com.evil.net', 'null', undefined]) {
      const res = await postJson(created.url, { email: 'mia@example.com' }, origin === undefined ? {} : { origin });
      expect(res.status, String(origin)).toBe(403);
      expect(await res.json()).toMatchObject({ success: false, error: { status: 403, code: 'ORIGIN_NOT_ALLOWED' } });
    }
    expect(await inquiryCount(client)).toBe(0);
    const allowed = await postJson(created.url, { email: 'mia@example.com' }, { origin: SITE });
    expect(allowed.status).toBe(201);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(await inquiryCount(client)).toBe(1);
  });

  it('sends a refused form to errorRedirectUrl with error=ORIGIN_NOT_ALLOWED, and takes the setting off with PATCH', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { allowedOrigins: [SITE], enforceOrigin: true, redirectUrl: `${SITE}/thanks`, errorRedirectUrl: `${SITE}/oops` });
    const res = await fetch(created.url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://elsewhere.example.net' }, body: 'email=mia%40example.com' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${SITE}/oops?error=ORIGIN_NOT_ALLOWED`);
    expect(await inquiryCount(client)).toBe(0);
    const changed = await client.patch(`/v1/inbound-endpoints/${created.id}`, { enforceOrigin: false });
    expect(changed.body.inboundEndpoint.enforceOrigin).toBe(false);
    expect((await postForm(created.url, { email: 'mia@example.com' })).status).toBe(303);
    expect(await inquiryCount(client)).toBe(1);
  });

  it('reads an endpoint stored before enforceOrigin and honeypotField existed as enforcing nothing, and takes posts as before', async () => {
    const { client, organizationId } = await api.organization();
    const created = await endpoint(client, { allowedOrigins: [SITE], enforceOrigin: true, honeypotField: 'website' });
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: inboundEndpointKeys.inboundEndpoint(organizationId, created.id), UpdateExpression: 'REMOVE enforceOrigin, honeypotField' }));
    expect((await client.get(`/v1/inbound-endpoints/${created.id}`)).body.inboundEndpoint).toMatchObject({ enforceOrigin: false, honeypotField: null });
    expect((await postForm(created.url, { email: 'mia@example.com', website: 'typed by a person' })).status).toBe(201);
    expect(await inquiryCount(client)).toBe(1);
  });

  it('answers 400 naming enforceOrigin when it is not a boolean', async () => {
    const { client } = await api.organization();
    const refused = await client.post('/v1/inbound-endpoints', { name: 'Contact', source: 'WEBFORM', enforceOrigin: 'yes' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe('enforceOrigin');
  });
});

describe('honeypotField: a hidden field that only bots fill', () => {
  it('answers a form that fills it 303 to redirectUrl as if recorded, and records nothing', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { honeypotField: 'website', redirectUrl: 'https://plumbing.example.com/thanks' });
    expect(created).toMatchObject({ honeypotField: 'website' });
    const res = await postForm(created.url, { email: 'bot@example.com', message: 'Cheap pills', website: 'http://spam.example' });
    expect(res.status).toBe(303);
    const inquiryId = new URL(res.headers.get('location')!).searchParams.get('inquiryId');
    expect(inquiryId).toMatch(/^inquiry_[0-9A-Z]{26}$/);
    expect((await client.get(`/v1/inquiries/${inquiryId}`)).status).toBe(404);
    expect(await inquiryCount(client)).toBe(0);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it('answers a JSON post that fills it 201 with an inquiry of the recorded shape, recording nothing, even one without a contact', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { honeypotField: 'website' });
    const res = await api.anonymous.request('POST', new URL(created.url).pathname + new URL(created.url).search, { body: { name: 'Bot', website: 'x' } });
    expect(res.status).toBe(201);
    expect(res.body.inquiry).toMatchObject({ id: expect.stringMatching(/^inquiry_/), source: 'WEBFORM', leadId: expect.stringMatching(/^lead_/) });
    expect(await inquiryCount(client)).toBe(0);
  });

  it('records a post that leaves it empty, without it among the fields', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { honeypotField: 'website' });
    const res = await postForm(created.url, { email: 'mia@example.com', website: '', message: 'Tap is dripping' });
    expect(res.status).toBe(201);
    const { inquiry } = (await res.json()) as { inquiry: { id: string } };
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.fields.map((field: { name: string }) => field.name)).toEqual(['email', 'message']);
    const changed = await client.patch(`/v1/inbound-endpoints/${created.id}`, { honeypotField: null });
    expect(changed.body.inboundEndpoint.honeypotField).toBeNull();
    expect((await postForm(created.url, { email: 'leo@example.com', website: 'filled by a person' })).status).toBe(201);
    expect(await inquiryCount(client)).toBe(2);
  });

  it('answers 400 naming honeypotField for an empty name', async () => {
    const { client } = await api.organization();
    const refused = await client.post('/v1/inbound-endpoints', { name: 'Contact', source: 'WEBFORM', honeypotField: ' ' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe('honeypotField');
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

  it('records the form without its files, naming each dropped in data.droppedFiles, and redirects it as any form: a file above the text limit too', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const boundary = 'X-BOUNDARY-91';
    const body = multipart(boundary, [
      { disposition: 'name="email"', value: 'mia@example.com' },
      { disposition: 'name="photo"; filename="leak.jpg"', type: 'image/jpeg', value: '\u00ff\u00d8\u00ff\u00e0 not really a jpeg' },
      { disposition: 'name="message"', value: 'The hot water system is leaking, photo attached' },
      // A file of 300 KB: more than a form's text may be, well within what a form with files may post.
      { disposition: 'name="resume"; filename="resume.pdf"', type: 'application/pdf', value: `%PDF-1.7 ${'0'.repeat(300 * 1024)}` },
    ]);
    const res = await postMultipart(created.url, `multipart/form-data; boundary=${boundary}`, body);
    expect(res.status).toBe(201);
    const { inquiry } = (await res.json()) as { inquiry: { id: string; summary: string } };
    expect(inquiry.summary).toBe('The hot water system is leaking, photo attached');
    const { data } = (await client.get(`/v1/inquiries/${inquiry.id}`)).body;
    expect(data.fields).toEqual([
      { name: 'email', label: 'email', value: 'mia@example.com' },
      { name: 'message', label: 'message', value: 'The hot water system is leaking, photo attached' },
    ]);
    expect(data.droppedFiles).toEqual(['leak.jpg', 'resume.pdf']);

    await client.patch(`/v1/inbound-endpoints/${created.id}`, { redirectUrl: 'https://plumbing.example.com/thanks', errorRedirectUrl: 'https://plumbing.example.com/oops' });
    const redirected = await postMultipart(created.url, `multipart/form-data; boundary=${boundary}`, body.replace('mia@example.com', 'leo@example.com'));
    expect(redirected.status).toBe(303);
    const inquiryId = new URL(redirected.headers.get('location')!).searchParams.get('inquiryId');
    expect(redirected.headers.get('location')).toBe(`https://plumbing.example.com/thanks?inquiryId=${inquiryId}`);
    expect((await client.get(`/v1/inquiries/${inquiryId}`)).body.data.droppedFiles).toEqual(['leak.jpg', 'resume.pdf']);
  });

  it('records a form without files with no droppedFiles, and still refuses a form whose text fields pass the text limit', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { errorRedirectUrl: 'https://plumbing.example.com/oops' });
    const boundary = 'X-BOUNDARY-92';
    const plain = await postMultipart(created.url, `multipart/form-data; boundary=${boundary}`, multipart(boundary, [{ disposition: 'name="email"', value: 'ana@example.com' }]));
    expect(plain.status).toBe(201);
    const { inquiry } = (await plain.json()) as { inquiry: { id: string } };
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body.data).not.toHaveProperty('droppedFiles');
    const longText = multipart(boundary, [
      { disposition: 'name="email"', value: 'big@example.com' },
      { disposition: 'name="message"', value: 'x'.repeat(300 * 1024) },
    ]);
    const refused = await postMultipart(created.url, `multipart/form-data; boundary=${boundary}`, longText);
    expect(refused.headers.get('location')).toBe('https://plumbing.example.com/oops?error=PAYLOAD_TOO_LARGE');
    expect(await inquiryCount(client)).toBe(1);
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
