import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '#shared/http/gateway-responses';
import { MAX_JSON_DEPTH } from '#shared/json-depth';
import { useTestApi, type Client } from '../../test/support/api';
import { assertFetchMatchesDocument } from '../../test/support/contract';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { ISO_MS, itemsOf, postForm } from '../../test/support/fixtures';

const api = useTestApi();

async function endpoint(client: Client, body: Record<string, unknown> = { name: 'Website contact form', source: 'WEBFORM' }) {
  const res = await client.post('/v1/inbound-endpoints', body);
  expect(res.status).toBe(201);
  return res.body.inboundEndpoint as { id: string; url: string; secret: string; source: string };
}

/** A JSON body signed by the standardwebhooks package, as any Standard Webhooks sender would. */
function signed(secret: string, body: unknown, { id = `msg_${Math.random().toString(36).slice(2)}`, at = new Date() } = {}) {
  const text = JSON.stringify(body);
  const signature = new StandardWebhook(secret).sign(id, at, text);
  return { body: text, headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature } };
}

const withoutToken = (url: string) => url.replace(/\?token=.*$/, '');

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64URL = BASE64.replace('+', '-').replace('/', '_');
/** The same text with its last character swapped for another of the alphabet, differing in its highest bit. */
const changeLastCharacter = (text: string, alphabet: string) => text.slice(0, -1) + alphabet[alphabet.indexOf(text.at(-1)!) ^ 32];

describe('inbound endpoints', () => {
  it('answers 201 with a URL holding a token and a whsec_ secret, and lists neither', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Quote form', source: 'WEBFORM', fieldMap: { your_email: 'email' } });
    expect(created).toEqual({
      id: expect.stringMatching(/^inbound_[0-9A-Z]{26}$/),
      name: 'Quote form',
      source: 'WEBFORM',
      fieldMap: { your_email: 'email' },
      redirectUrl: null,
      errorRedirectUrl: null,
      allowedOrigins: [],
      enforceOrigin: false,
      honeypotField: null,
      format: 'native',
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: (created as unknown as { createdAt: string }).createdAt,
      url: expect.stringMatching(new RegExp(`^${api.url}/v1/inbound/${created.id}\\?token=inb_[A-Za-z0-9_-]{32}$`)),
      secret: expect.stringMatching(/^whsec_/),
    });
    const listed = (await client.get('/v1/inbound-endpoints')).body;
    expect(listed.totalCount).toBe(1);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect(JSON.stringify(listed)).not.toContain(created.url.split('token=')[1]);
  });

  it('records a form post (urlencoded) as a WEBFORM inquiry with every field, and finds the lead through fieldMap', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Contact', source: 'WEBFORM', fieldMap: { your_email: 'email', mobile: 'phone', full_name: 'name' } });
    const res = await postForm(created.url, { full_name: 'Mia Wong', your_email: 'mia@example.com', mobile: '0412 345 678', message: 'The hot water system is leaking from the bottom.', suburb: 'Newtown' });
    expect(res.status).toBe(201);
    const { inquiry } = (await res.json()) as { inquiry: { id: string; leadId: string; source: string; summary: string } };
    expect(inquiry).toMatchObject({ source: 'WEBFORM', summary: 'The hot water system is leaking from the bottom.', isFirstInquiry: true });
    // The national form people type is read with the organization's country, Australia until it sets another.
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead).toMatchObject({ firstName: 'Mia', lastName: 'Wong', email: 'mia@example.com', phone: '+61412345678', unreadWebformSubmissions: 1 });
    const { data } = (await client.get(`/v1/inquiries/${inquiry.id}`)).body;
    expect(data).toMatchObject({ formName: 'Contact', pageUrl: null });
    expect(data.fields).toEqual([
      { name: 'full_name', label: 'full_name', value: 'Mia Wong' },
      { name: 'your_email', label: 'your_email', value: 'mia@example.com' },
      { name: 'mobile', label: 'mobile', value: '0412 345 678' },
      { name: 'message', label: 'message', value: 'The hot water system is leaking from the bottom.' },
      { name: 'suburb', label: 'suburb', value: 'Newtown' },
    ]);
  });

  it('reads a form’s international phone as people type it, brackets and trunk 0 included, so the caller is known when they ring', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Quote', source: 'WEBFORM' });
    const res = await postForm(created.url, { name: 'Ava Lim', phone: '+61 (0)422 555 010', message: 'Quote for a new hot water system please.' });
    expect(res.status).toBe(201);
    const { inquiry } = (await res.json()) as { inquiry: { leadId: string } };
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead.phone).toBe('+61422555010');
    expect((await client.get('/v1/callers/%2B61422555010')).body.caller.lead?.id).toBe(inquiry.leadId);
  });

  it('leaves a phone that is no number of the organization’s country unread; the lead is made from the email', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Quote', source: 'WEBFORM' });
    const res = await postForm(created.url, { email: 'zed@example.com', phone: '0412 345', message: 'Quote for a new hot water system please.' });
    expect(res.status).toBe(201);
    const { inquiry } = (await res.json()) as { inquiry: { leadId: string } };
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead).toMatchObject({ email: 'zed@example.com', phone: null });
  });

  it('records a signed JSON post (Standard Webhooks) to an EMAIL endpoint, and a repeat of its webhook-id answers 200 with the same inquiry’s ids', async () => {
    const { client } = await api.organization();
    const existing = (await client.post('/v1/leads', { name: 'Leo Park', email: 'leo@example.com' })).body.lead;
    const created = await endpoint(client, { name: 'Parsed mail', source: 'EMAIL' });
    const mail = { from: 'Leo Park <LEO@example.com>', to: 'office@example.com', subject: 'Switchboard upgrade quote', text: 'Can you quote for a new switchboard?' };
    const request = signed(created.secret, mail, { id: 'msg_2f9a1' });
    const first = await fetch(withoutToken(created.url), { method: 'POST', ...request });
    const again = await fetch(withoutToken(created.url), { method: 'POST', ...signed(created.secret, mail, { id: 'msg_2f9a1' }) });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    const inquiry = ((await first.json()) as { inquiry: { id: string; leadId: string } }).inquiry;
    expect(await again.json()).toEqual({ inquiry: { id: inquiry.id, leadId: existing.id }, created: false });
    expect(inquiry).toMatchObject({ leadId: existing.id, source: 'EMAIL', summary: 'Switchboard upgrade quote' });
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body.data).toMatchObject({ subject: mail.subject, body: mail.text, from: mail.from });
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
  });

  it('records a call an AI voice agent posts with the token, as POST /v1/inquiries takes it', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Voice agent', source: 'CALL' });
    const call = {
      lead: { phone: '+61412000444', name: 'Noah Reid' },
      tag: 'EMERGENCY',
      externalInquiryId: 'call-8812',
      data: {
        summary: 'Gas smell in the laundry.',
        keyPoints: ['Gas smell'],
        recordingUrl: 'https://recordings.example.com/8812.mp3',
        transcripts: [{ created_at: '2026-11-20T09:00:05.000Z', text: 'I can smell gas.', user: 'user' }],
        direction: 'LEAD_TO_AI',
        duration: 40,
        startedAt: '2026-11-20T09:00:00.000Z',
        endedAt: '2026-11-20T09:00:40.000Z',
        endedBy: 'assistant',
      },
    };
    const res = await fetch(created.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call) });
    expect(res.status).toBe(201);
    const { inquiry } = (await res.json()) as { inquiry: { id: string; leadId: string } };
    expect(inquiry).toMatchObject({ source: 'CALL', tag: 'EMERGENCY', summary: 'Gas smell in the laundry.' });
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead).toMatchObject({ phone: '+61412000444', unreadCalls: 1, hasFlaggedInquiry: true });
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.transcripts).toMatchObject([{ text: 'I can smell gas.', user: 'user' }]);
  });

  it('answers a repeat of the externalInquiryId field with 200 and the first inquiry’s ids, and writes nothing again', async () => {
    const { client, organizationId } = await api.organization();
    const created = await endpoint(client, { name: 'Quote form', source: 'WEBFORM' });
    const submission = { email: 'ivy@example.com', message: 'Please quote for two new downpipes.', externalInquiryId: 'form-entry-77' };
    const first = await postForm(created.url, submission);
    expect(first.status).toBe(201);
    const { inquiry } = (await first.json()) as { inquiry: { id: string; leadId: string } };
    const before = await itemsOf(organizationId);

    const again = await postForm(created.url, submission);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ inquiry: { id: inquiry.id, leadId: inquiry.leadId }, created: false });
    expect(await itemsOf(organizationId)).toEqual(before);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead).toMatchObject({ unreadWebformSubmissions: 1 });
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.fields.map((field: { name: string }) => field.name)).toEqual(['email', 'message']);
  });

  it('answers a repeat of the Idempotency-Key header with 200 and the first inquiry’s ids, and writes nothing again; another key records another inquiry', async () => {
    const { client, organizationId } = await api.organization();
    const created = await endpoint(client, { name: 'Website chat', source: 'CHATBOT' });
    const chat = { lead: { email: 'zoe@example.com' }, data: { messages: [{ role: 'user', text: 'Is anyone free today?', createdAt: '2026-11-20T08:00:00.000Z' }], startedAt: '2026-11-20T08:00:00.000Z', endedAt: null } };
    const send = (key: string) => fetch(created.url, { method: 'POST', headers: { 'content-type': 'application/json', 'Idempotency-Key': key }, body: JSON.stringify(chat) });
    const first = await send('chat-5521');
    expect(first.status).toBe(201);
    const { inquiry } = (await first.json()) as { inquiry: { id: string; leadId: string } };
    const before = await itemsOf(organizationId);

    const again = await send('chat-5521');
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ inquiry: { id: inquiry.id, leadId: inquiry.leadId }, created: false });
    expect(await itemsOf(organizationId)).toEqual(before);

    const other = await send('chat-5522');
    expect(other.status).toBe(201);
    expect(((await other.json()) as { inquiry: { id: string } }).inquiry.id).not.toBe(inquiry.id);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(2);
  });

  it('records a chat a CHATBOT endpoint receives, and the inquiry reads back with its messages, each with an id', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Website chat', source: 'CHATBOT' });
    const chat = {
      lead: { email: 'max@example.com', name: 'Max Berg' },
      tag: 'QUOTE_REQUEST',
      summary: 'Wants a quote for a ceiling fan.',
      data: {
        messages: [
          { role: 'user', text: 'How much to install a ceiling fan?', createdAt: '2026-11-20T08:00:00.000Z' },
          { role: 'assistant', text: 'Usually $180. What suburb are you in?', createdAt: '2026-11-20T08:00:04.000Z' },
        ],
        startedAt: '2026-11-20T08:00:00.000Z',
        endedAt: '2026-11-20T08:01:00.000Z',
      },
    };
    const res = await fetch(created.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(chat) });
    expect(res.status).toBe(201);
    const { inquiry } = (await res.json()) as { inquiry: { id: string; leadId: string } };
    expect(inquiry).toMatchObject({ source: 'CHATBOT', tag: 'QUOTE_REQUEST', summary: 'Wants a quote for a ceiling fan.', isFirstInquiry: true });
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead).toMatchObject({ email: 'max@example.com', firstName: 'Max', lastName: 'Berg' });

    const read = (await client.get(`/v1/inquiries/${inquiry.id}`)).body;
    expect(read).toMatchObject({ id: inquiry.id, source: 'CHATBOT' });
    expect(read.data).toEqual({
      id: expect.stringMatching(/^chat_[0-9A-Z]{26}$/),
      messages: chat.data.messages.map((message) => ({ id: expect.stringMatching(/^chatmsg_[0-9A-Z]{26}$/), ...message })),
      startedAt: '2026-11-20T08:00:00.000Z',
      endedAt: '2026-11-20T08:01:00.000Z',
    });
    expect(new Set(read.data.messages.map((message: { id: string }) => message.id)).size).toBe(2);
  });

  it('records an email posted with only html: its text without tags, styles or entities is the body, and its subject the summary', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Parsed mail', source: 'EMAIL' });
    const html = '<html><head><style>p { color: #333; }</style></head><body><!-- tracking --><p>Hi,</p><p>Could you quote for a 250&nbsp;L hot water unit &amp; its install? It&#8217;s urgent&mdash;the old one&rsquo;s leaking&hellip;</p></body></html>';
    const mail = { from: 'Ruth Hale <ruth@example.com>', to: 'office@example.com', subject: 'Hot water quote', html };
    const res = await fetch(created.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(mail) });
    expect(res.status).toBe(201);
    const { inquiry } = (await res.json()) as { inquiry: { id: string; leadId: string } };
    expect(inquiry).toMatchObject({ source: 'EMAIL', summary: 'Hot water quote' });
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body.data).toMatchObject({ subject: 'Hot water quote', body: 'Hi, Could you quote for a 250 L hot water unit & its install? It’s urgent—the old one’s leaking…' });
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead).toMatchObject({ email: 'ruth@example.com', firstName: 'Ruth', lastName: 'Hale' });
  });

  it('keeps form fields named after Object.prototype (constructor, toString, valueOf, hasOwnProperty, __proto__) as posted', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Contact', source: 'WEBFORM', fieldMap: { your_email: 'email' } });
    const posted = new URLSearchParams([
      ['your_email', 'proto@example.com'],
      ['constructor', 'hello'],
      ['toString', 'to string'],
      ['valueOf', 'value of'],
      ['hasOwnProperty', 'has own'],
      ['__proto__', 'proto'],
    ]);
    const res = await fetch(created.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: posted.toString() });
    expect(res.status).toBe(201);
    const { inquiry } = (await res.json()) as { inquiry: { id: string; leadId: string } };
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.fields).toEqual([...posted].map(([name, value]) => ({ name, label: name, value })));
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead).toMatchObject({ email: 'proto@example.com' });
  });

  it('keeps a JSON field named __proto__ as a field, and it cannot stand in for the lead’s email', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Contact', source: 'WEBFORM' });
    // Written out: an object literal's __proto__ would set the prototype instead of being a key.
    const body = '{"__proto__":{"email":"ghost@example.com"},"constructor":"c","phone":"+61412000555"}';
    const res = await fetch(created.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(201);
    const { inquiry } = (await res.json()) as { inquiry: { id: string; leadId: string } };
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.fields).toEqual([
      { name: '__proto__', label: '__proto__', value: '{"email":"ghost@example.com"}' },
      { name: 'constructor', label: 'constructor', value: 'c' },
      { name: 'phone', label: 'phone', value: '+61412000555' },
    ]);
    const lead = (await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead;
    expect(lead).toMatchObject({ phone: '+61412000555' });
    expect(lead.email ?? null).toBeNull();
  });

  it('answers 400 INVALID_JSON for a JSON body nested thousands of levels deep, records nothing and logs no error', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const written: string[] = [];
    for (const method of ['log', 'info', 'warn', 'error'] as const) vi.spyOn(console, method).mockImplementation((...args) => void written.push(args.map(String).join(' ')));
    const levels = 10_000;
    const deep = `{"email":"deep@example.com","details":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;
    const res = await fetch(created.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep });
    vi.restoreAllMocks();
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error: { status: 400, code: 'INVALID_JSON' } });
    expect(written.filter((line) => /"level":\s*"ERROR"/.test(line))).toEqual([]);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it(`accepts JSON nested as deep as the limit (${MAX_JSON_DEPTH} levels, the body's own included)`, async () => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const levels = MAX_JSON_DEPTH - 1;
    const body = `{"email":"nested@example.com","details":${'['.repeat(levels - 1)}{}${']'.repeat(levels - 1)}}`;
    const res = await fetch(created.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(201);
    const tooDeep = `{"email":"nested@example.com","details":${'['.repeat(levels)}{}${']'.repeat(levels)}}`;
    const refused = await fetch(created.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: tooDeep });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'INVALID_JSON' } });
  });

  it('summarises a form without a message field by its first long field, on one line, keeping the field as posted', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Gutter form', source: 'WEBFORM' });
    const details = 'The back gutter overflows\nevery time it rains heavily.';
    const res = await postForm(created.url, { email: 'kai@example.com', suburb: 'Newtown', details, access: 'Side gate is open during the day, dog is friendly.' });
    expect(res.status).toBe(201);
    const { inquiry } = (await res.json()) as { inquiry: { id: string } };
    expect(inquiry).toMatchObject({ source: 'WEBFORM', summary: 'The back gutter overflows every time it rains heavily.' });
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.fields).toContainEqual({ name: 'details', label: 'details', value: details });
  });

  it('summarises a form with no message and no long field by its source', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Callback form', source: 'WEBFORM' });
    const res = await postForm(created.url, { email: 'lou@example.com', suburb: 'Newtown', best_time: 'After 5pm' });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { inquiry: { summary: string } }).inquiry.summary).toBe('Webform inquiry');
  });

  it.each([
    ['no token or signature', (url: string) => fetch(withoutToken(url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"x@example.com"}' })],
    ['a wrong token', (url: string) => postForm(url.replace(/token=.*/, 'token=inb_wrongwrongwrongwrongwrongwrongwron'), { email: 'x@example.com' })],
    ['a signature with another secret', (url: string) => fetch(withoutToken(url), { method: 'POST', ...signed(`whsec_${Buffer.alloc(32, 9).toString('base64')}`, { email: 'x@example.com' }) })],
    ['a signature older than 5 minutes', (url: string, secret: string) => fetch(withoutToken(url), { method: 'POST', ...signed(secret, { email: 'x@example.com' }, { at: new Date(Date.now() - 6 * 60_000) }) })],
    ['an endpoint that does not exist', (url: string) => postForm(url.replace(/inbound_[0-9A-Z]{26}/, 'inbound_01HZZZZZZZZZZZZZZZZZZZZZZZ'), { email: 'x@example.com' })],
  ])('answers 401 with the envelope for %s, and records nothing', async (_, send) => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const res = await send(created.url, created.secret);
    expect(res.status).toBe(401);
    // Word for word the gateway's 401, which refuses an unknown endpoint: a bad token does not tell that the id exists.
    expect(await res.json()).toEqual(gatewayResponseBody(GATEWAY_RESPONSES.UNAUTHORIZED));
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it.each([
    ['6 minutes in the past', -6],
    ['6 minutes in the future', 6],
  ])('answers 401 for a signature timestamped %s, outside the 5 minutes either way, and records nothing', async (_, minutes) => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Parsed mail', source: 'EMAIL' });
    const mail = { from: 'kim@example.com', to: 'office@example.com', subject: 'Quote', text: 'Please call me.' };
    const res = await fetch(withoutToken(created.url), { method: 'POST', ...signed(created.secret, mail, { at: new Date(Date.now() + minutes * 60_000) }) });
    expect(res.status).toBe(401);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
  });

  it('accepts a signature timestamped 4 minutes in the past or 4 minutes in the future (clock skew either way)', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Parsed mail', source: 'EMAIL' });
    for (const minutes of [-4, 4]) {
      const mail = { from: `skew${minutes + 10}@example.com`, to: 'office@example.com', subject: 'Quote', text: 'Please call me.' };
      const res = await fetch(withoutToken(created.url), { method: 'POST', ...signed(created.secret, mail, { at: new Date(Date.now() + minutes * 60_000) }) });
      expect(res.status, `${minutes} minutes`).toBe(201);
    }
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(2);
  });

  it('answers 401 for the token with only its last character changed, and records nothing', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const token = created.url.split('token=')[1]!;
    const res = await postForm(created.url.replace(token, changeLastCharacter(token, BASE64URL)), { email: 'near@example.com' });
    expect(res.status).toBe(401);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
  });

  it('answers 401 for a signature with only its last base64 character changed, and records nothing', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Parsed mail', source: 'EMAIL' });
    const request = signed(created.secret, { from: 'near@example.com', to: 'office@example.com', subject: 'Quote', text: 'Please call me.' });
    // v1,<base64 of 32 bytes>=: the last character before the padding carries signature bits.
    const [version, signature] = request.headers['webhook-signature'].split(',') as [string, string];
    const digits = signature.replace(/=+$/, '');
    const changed = `${version},${changeLastCharacter(digits, BASE64)}${signature.slice(digits.length)}`;
    const res = await fetch(withoutToken(created.url), { method: 'POST', body: request.body, headers: { ...request.headers, 'webhook-signature': changed } });
    expect(res.status).toBe(401);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
  });

  it('answers 415 for other body types, 413 above 256 KB and 400 naming the field for a form without email or phone', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    expect((await fetch(created.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'email=x@example.com' })).status).toBe(415);
    expect((await postForm(created.url, { email: 'big@example.com', message: 'x'.repeat(300 * 1024) })).status).toBe(413);
    const missing = await postForm(created.url, { name: 'No Contact', message: 'Call me' });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toContain('lead');
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
  });

  it('stops accepting the old token after a rotation, and a deleted endpoint answers 401', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const rotated = (await client.post(`/v1/inbound-endpoints/${created.id}/rotate`)).body.inboundEndpoint;
    expect(rotated.url).not.toBe(created.url);
    expect((await postForm(created.url, { email: 'old@example.com' })).status).toBe(401);
    expect((await postForm(rotated.url, { email: 'new@example.com' })).status).toBe(201);
    expect((await client.delete(`/v1/inbound-endpoints/${created.id}`)).status).toBe(200);
    expect((await postForm(rotated.url, { email: 'gone@example.com' })).status).toBe(401);
  });

  it("answers 404 for another organization's endpoint", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const created = await endpoint(a.client);
    expect((await b.client.post(`/v1/inbound-endpoints/${created.id}/rotate`)).status).toBe(404);
    expect((await b.client.delete(`/v1/inbound-endpoints/${created.id}`)).status).toBe(404);
    expect((await postForm(created.url, { email: 'still@example.com' })).status).toBe(201);
  });
});

describe('GET and PATCH /v1/inbound-endpoints/{inboundEndpointId}', () => {
  it('reads one endpoint as the list shows it, never its token or secret, with one GetItem', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Quote form', source: 'WEBFORM', fieldMap: { your_email: 'email' } });
    let res: { status: number; body: any } | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.get(`/v1/inbound-endpoints/${created.id}`);
    });
    expect(res!.status).toBe(200);
    const { url: _url, secret: _secret, ...shown } = created as typeof created & { fieldMap: unknown; createdAt: string; name: string };
    expect(res!.body).toEqual({ inboundEndpoint: shown });
    expect(res!.body).toEqual({ inboundEndpoint: (await client.get('/v1/inbound-endpoints')).body.inboundEndpoints[0] });
    expect(JSON.stringify(res!.body)).not.toContain(created.secret);
    expect(JSON.stringify(res!.body)).not.toContain(created.url.split('token=')[1]);
    expect(calls).toEqual(['GetItemCommand']);
  });

  it('changes name, source and fieldMap in one UpdateItem, keeping the URL, token and secret working', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Contact', source: 'WEBFORM' });
    let res: { status: number; body: any } | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.patch(`/v1/inbound-endpoints/${created.id}`, { name: '  Quote form ', fieldMap: { your_email: 'email', mobile: 'phone' } });
    });
    expect(res!.status).toBe(200);
    expect(res!.body.inboundEndpoint).toEqual({ id: created.id, name: 'Quote form', source: 'WEBFORM', fieldMap: { your_email: 'email', mobile: 'phone' }, redirectUrl: null, errorRedirectUrl: null, allowedOrigins: [], enforceOrigin: false, honeypotField: null, format: 'native', createdAt: (created as unknown as { createdAt: string }).createdAt, updatedAt: expect.stringMatching(ISO_MS) });
    expect(calls).toEqual(['UpdateItemCommand']);
    expect((await client.get(`/v1/inbound-endpoints/${created.id}`)).body).toEqual(res!.body);
    // The same URL and token take posts, read with the new fieldMap.
    const post = await postForm(created.url, { your_email: 'ana@example.com', mobile: '+61412000999', message: 'New tap please' });
    expect(post.status).toBe(201);
    const { inquiry } = (await post.json()) as { inquiry: { leadId: string } };
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body.lead).toMatchObject({ email: 'ana@example.com', phone: '+61412000999' });
    // The signing secret still signs.
    const signedPost = await fetch(withoutToken(created.url), { method: 'POST', ...signed(created.secret, { your_email: 'ana@example.com', message: 'Again' }) });
    expect(signedPost.status).toBe(201);
    // null removes the map; source may change.
    const cleared = await client.patch(`/v1/inbound-endpoints/${created.id}`, { fieldMap: null, source: 'EMAIL' });
    expect(cleared.body.inboundEndpoint).toMatchObject({ name: 'Quote form', source: 'EMAIL', fieldMap: null });
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['a blank name', { name: ' ' }, 'name'],
    ['an unknown source', { source: 'FAX' }, 'source'],
    ['a fieldMap target that is not ours', { fieldMap: { a: 'suburb' } }, 'fieldMap.a'],
    ['the url', { url: 'https://example.com' }, 'url'],
    ['the secret', { secret: 'whsec_x' }, 'secret'],
  ])('answers 400 for %s, naming the field, and changes nothing', async (_, body, field) => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const before = (await client.get(`/v1/inbound-endpoints/${created.id}`)).body;
    const res = await client.patch(`/v1/inbound-endpoints/${created.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect((await client.get(`/v1/inbound-endpoints/${created.id}`)).body).toEqual(before);
  });

  it("answers 404 for an unknown or deleted endpoint and for another organization's, and changes nothing", async () => {
    const owner = await api.organization();
    const created = await endpoint(owner.client);
    const before = (await owner.client.get(`/v1/inbound-endpoints/${created.id}`)).body;
    const { client } = await api.organization();
    for (const id of [created.id, 'inbound_01HZZZZZZZZZZZZZZZZZZZZZZZ']) {
      expect((await client.get(`/v1/inbound-endpoints/${id}`)).body.error).toEqual({ status: 404, message: 'Inbound endpoint not found', code: 'NOT_FOUND' });
      expect((await client.patch(`/v1/inbound-endpoints/${id}`, { name: 'Taken' })).status).toBe(404);
    }
    expect((await owner.client.get(`/v1/inbound-endpoints/${created.id}`)).body).toEqual(before);
    await owner.client.delete(`/v1/inbound-endpoints/${created.id}`);
    expect((await owner.client.get(`/v1/inbound-endpoints/${created.id}`)).status).toBe(404);
    expect((await owner.client.patch(`/v1/inbound-endpoints/${created.id}`, { name: 'Back' })).status).toBe(404);
  });
});

/** A JSON post to a public inbound URL, as a browser page's script or a form builder sends it. */
const postJson = (url: string, body: unknown) => fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a public inbound URL does not tell which endpoint ids exist', () => {
  it.each([
    ['a wrong token and a query parameter the route does not take', (id: string) => `/v1/inbound/${id}?token=inb_wrongwrongwrongwrongwrongwrongwron&utm_source=x`],
    ['no token and a query parameter the route does not take', (id: string) => `/v1/inbound/${id}?utm_source=x`],
    ['a token longer than 200 characters', (id: string) => `/v1/inbound/${id}?token=${'a'.repeat(201)}`],
  ])('answers a post with %s exactly as it answers an unknown endpoint: 401, records nothing', async (_, pathOf) => {
    const { client } = await api.organization();
    const created = await endpoint(client);
    const UNKNOWN_ID = 'inbound_01HZZZZZZZZZZZZZZZZZZZZZZZ';
    const unknown = await postJson(`${api.url}${pathOf(UNKNOWN_ID)}`, { email: 'probe@example.com' });
    expect(unknown.status).toBe(401);
    const existing = await postJson(`${api.url}${pathOf(created.id)}`, { email: 'probe@example.com' });
    // docs/decisions/inbound.md: "An unknown endpoint answers the same 401 as a bad token, so ids cannot be probed."
    expect({ status: existing.status, body: await existing.json() }).toEqual({ status: 401, body: gatewayResponseBody(GATEWAY_RESPONSES.UNAUTHORIZED) });
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
  });

  it('answers a preflight with a wrong token and a query parameter the route does not take as one for an unknown endpoint: 401', async () => {
    const { client } = await api.organization();
    const created = await endpoint(client, { name: 'Shop form', source: 'WEBFORM', allowedOrigins: ['https://shop.example.com'] });
    const UNKNOWN_ID = 'inbound_01HZZZZZZZZZZZZZZZZZZZZZZZ';
    const preflight = (id: string) =>
      fetch(`${api.url}/v1/inbound/${id}?token=inb_wrongwrongwrongwrongwrongwrongwron&utm_source=x`, { method: 'OPTIONS', headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' } });
    expect((await preflight(UNKNOWN_ID)).status).toBe(401);
    // "a preflight must not tell which ids exist"
    expect((await preflight(created.id)).status).toBe(401);
  });

  it('takes a form post with its token and a query parameter the route does not name (a page’s campaign tags), as any other', async () => {
    const { client } = await api.organization();
    const form = await endpoint(client);
    const res = await postJson(`${form.url}&utm_source=newsletter`, { email: 'tagged@example.com', message: 'From the newsletter' });
    expect(res.status).toBe(201);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
  });
});

describe('a public inbound URL writes inquiries, it does not read them', () => {
  it('never answers a post that repeats another sender’s externalInquiryId with that inquiry’s summary or lead', async () => {
    const { client } = await api.organization();
    // Recorded by the organization's own integration with its API key: a CRM's entry number as the external id.
    const privateInquiry = await client.post('/v1/inquiries', {
      source: 'WEBFORM',
      externalInquiryId: '1001',
      lead: { name: 'Rosa Private', email: 'rosa.private@example.com', phone: '+61412999888' },
      summary: 'Key is under the mat; alarm code 4321',
      data: { formName: 'Back office', fields: [{ name: 'notes', label: 'notes', value: 'Key is under the mat; alarm code 4321' }], submittedAt: '2026-11-20T00:00:00.000Z', pageUrl: null },
    });
    expect(privateInquiry.status).toBe(201);
    const { inquiry } = privateInquiry.body as { inquiry: { id: string; leadId: string } };

    // A web form's URL, token included, is public in its page (docs/decisions/security.md): anyone can post to it.
    const form = await endpoint(client);
    const res = await postJson(form.url, { email: 'stranger@example.com', message: 'hello', externalInquiryId: '1001' });
    const text = await res.text();
    expect(text).not.toContain('alarm code 4321');
    expect(text).not.toContain(inquiry.leadId);
    // The stranger's post is recorded as their own, on their own lead.
    expect(res.status).toBe(201);
    const own = JSON.parse(text).inquiry;
    expect((await client.get(`/v1/leads/${own.leadId}`)).body.lead.email).toBe('stranger@example.com');
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(2);
  });

  // A form builder's entry number may come as a number: it is the same id as its text.
  it.each([['text', 'entry-7'], ['an integer', 4242]])('answers a repeat from the sender that made it, its id sent as %s, with the first inquiry’s ids, and records nothing', async (_, externalInquiryId) => {
    const { client } = await api.organization();
    const form = await endpoint(client);
    const post = () => postJson(form.url, { email: 'ana@example.com', message: 'Quote for re-piping', externalInquiryId });
    const first = await post();
    expect(first.status).toBe(201);
    const again = await post();
    expect(again.status).toBe(200);
    const { inquiry } = (await first.json()) as { inquiry: { id: string; leadId: string } };
    expect(await again.json()).toEqual({ inquiry: { id: inquiry.id, leadId: inquiry.leadId }, created: false });
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
  });

  it('never answers a post to one form with an inquiry another form of the organization recorded', async () => {
    const { client } = await api.organization();
    const quotes = await endpoint(client, { name: 'Quote form', source: 'WEBFORM' });
    const careers = await endpoint(client, { name: 'Careers form', source: 'WEBFORM' });
    const first = await postJson(quotes.url, { email: 'ana@example.com', message: 'Quote for re-piping, my gate code is 8080', externalInquiryId: 'entry-1' });
    expect(first.status).toBe(201);
    const { inquiry } = (await first.json()) as { inquiry: { id: string; leadId: string } };

    // Each form builder numbers its own entries from 1: the careers form's first entry is a different submission.
    const other = await postJson(careers.url, { email: 'ben@example.com', message: 'Applying as an apprentice', externalInquiryId: 'entry-1' });
    const text = await other.text();
    expect(text).not.toContain('gate code is 8080');
    expect(text).not.toContain(inquiry.leadId);
    expect(other.status).toBe(201);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(2);
  });

  // A repeat is told by the sender's email or phone, which anyone may type, and an id (an Idempotency-Key, a form
  // builder's entry number) a visitor may reuse: what it answers must hold nothing the first post recorded.
  const visitorA = { name: 'Rosa Marsh', email: 'rosa.marsh@example.com', phone: '+61412555700', message: 'Side gate code is 4471; the spare key is in the meter box.' };
  const visitorB = { name: 'Eve Prowler', email: 'rosa.marsh@example.com', message: 'What did the first visitor write?' };
  /** Each way a sender's id comes: the Idempotency-Key header, or the externalInquiryId field. */
  const SENDER_IDS = {
    'Idempotency-Key': (id: string) => ({ headers: { 'Idempotency-Key': id }, fields: {} }),
    externalInquiryId: (id: string) => ({ headers: {}, fields: { externalInquiryId: id } }),
  };
  /** A post as JSON, or as an HTML form (urlencoded), whose redirect is not followed; held to the document as every answer is. */
  async function postAs(kind: 'json' | 'form', url: string, fields: Record<string, string>, headers: Record<string, string>) {
    const body = kind === 'json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
    const contentType = kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
    const res = await fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': contentType, ...headers }, body });
    await assertFetchMatchesDocument('POST', url, res);
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  }

  it.each([
    ['Idempotency-Key', 'json'],
    ['Idempotency-Key', 'form'],
    ['externalInquiryId', 'json'],
    ['externalInquiryId', 'form'],
  ] as const)('answers another visitor who repeats the %s with the first sender’s email, posting %s, the ids alone, and leaves the first inquiry as it was', async (sentAs, kind) => {
    const { client } = await api.organization();
    const form = await endpoint(client);
    const { headers, fields } = SENDER_IDS[sentAs]('entry-1');
    const first = await postAs(kind, form.url, { ...visitorA, ...fields }, headers);
    expect(first.status).toBe(201);
    const { inquiry } = JSON.parse(first.text) as { inquiry: { id: string; leadId: string } };
    const recorded = (await client.get(`/v1/inquiries/${inquiry.id}`)).body;
    const lead = (await client.get(`/v1/leads/${inquiry.leadId}`)).body;

    const repeat = await postAs(kind, form.url, { ...visitorB, ...fields }, headers);
    expect(repeat.status).toBe(200);
    expect(JSON.parse(repeat.text)).toEqual({ inquiry: { id: inquiry.id, leadId: inquiry.leadId }, created: false });
    for (const recordedText of ['4471', 'meter box', 'Rosa', 'Marsh', '+61412555700']) expect(repeat.text).not.toContain(recordedText);
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body).toEqual(recorded);
    expect((await client.get(`/v1/leads/${inquiry.leadId}`)).body).toEqual(lead);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
  });

  it.each(Object.keys(SENDER_IDS) as Array<keyof typeof SENDER_IDS>)('sends another visitor who repeats the %s of a form with a redirectUrl to it with the first inquiry’s id alone', async (sentAs) => {
    const { client } = await api.organization();
    const form = await endpoint(client, { name: 'Quote form', source: 'WEBFORM', redirectUrl: 'https://plumbing.example.com/thanks?from=quote' });
    const { headers, fields } = SENDER_IDS[sentAs]('entry-1');
    const first = await postAs('form', form.url, { ...visitorA, ...fields }, headers);
    expect(first.status).toBe(303);
    const inquiryId = new URL(first.location!).searchParams.get('inquiryId')!;
    const recorded = (await client.get(`/v1/inquiries/${inquiryId}`)).body;

    const repeat = await postAs('form', form.url, { ...visitorB, ...fields }, headers);
    expect(repeat).toEqual({ status: 303, location: `https://plumbing.example.com/thanks?from=quote&inquiryId=${inquiryId}`, text: '' });
    expect((await client.get(`/v1/inquiries/${inquiryId}`)).body).toEqual(recorded);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
  });
});
