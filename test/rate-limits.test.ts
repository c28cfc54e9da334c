import { describe, expect, it } from 'vitest';
import { USAGE_PLANS } from '#shared/auth/usage-plans';
import { createRateLimiter } from '../infra/local/rate-limiter';
import { useTestApi, type Client } from './support/api';
import { postForm } from './support/fixtures';

const api = useTestApi();
const starter = USAGE_PLANS.starter;

describe('rate limits per organization', () => {
  it('answers requests beyond the plan’s burst with 429 RATE_LIMITED and Retry-After, and admits the whole burst', async () => {
    const { client } = await api.organization({ usagePlan: 'starter' });
    const attempts = starter.burstLimit * 4;
    const responses = await Promise.all(Array.from({ length: attempts }, () => client.get('/v1/leads?limit=1')));
    const admitted = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(admitted.length + limited.length).toBe(attempts);
    expect(admitted.length).toBeGreaterThanOrEqual(starter.burstLimit);
    expect(limited.length).toBeGreaterThan(0);
    for (const response of limited) {
      expect(response.body).toEqual({
        success: false,
        message: expect.stringContaining('Too many requests'),
        error: { status: 429, message: expect.any(String), code: 'RATE_LIMITED' },
      });
      expect(response.headers.get('retry-after')).toBe('1');
    }
  });

  it('limits each organization on its own: one at its limit does not slow another', async () => {
    const busy = await api.organization({ usagePlan: 'starter' });
    const other = await api.organization({ usagePlan: 'starter' });
    const statuses = await Promise.all(Array.from({ length: starter.burstLimit * 4 }, () => busy.client.get('/v1/leads?limit=1').then((r) => r.status)));
    expect(statuses).toContain(429);
    const others = await Promise.all(Array.from({ length: starter.burstLimit }, () => other.client.get('/v1/leads?limit=1').then((r) => r.status)));
    expect(others.every((status) => status === 200)).toBe(true);
  });

  it('does not meter the public description of the API', async () => {
    const statuses = await Promise.all(Array.from({ length: USAGE_PLANS.standard.burstLimit * 2 }, () => api.anonymous.get('/openapi').then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('lets a write that was limited change nothing', async () => {
    const { client } = await api.organization({ usagePlan: 'starter' });
    const attempts = starter.burstLimit * 3;
    const responses = await Promise.all(Array.from({ length: attempts }, (_, i) => client.post('/v1/leads', { firstName: `Caller ${i}`, phone: `+6140000${String(i).padStart(4, '0')}` })));
    const namesAnswered = (status: number) => responses.flatMap((r, i) => (r.status === status ? [`Caller ${i}`] : []));
    expect(namesAnswered(429).length).toBeGreaterThan(0);
    const retryAfter = Number(responses.find((r) => r.status === 429)!.headers.get('retry-after'));
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    const list = await client.get('/v1/leads?limit=100');
    expect(list.status).toBe(200);
    // Every lead a 201 named is there, and none a 429 refused: an answer lost to a slow machine (a 5xx) may go either way.
    const listed = list.body.leads.map((lead: { firstName: string }) => lead.firstName);
    expect(listed).toEqual(expect.arrayContaining(namesAnswered(201)));
    expect(listed.filter((name: string) => namesAnswered(429).includes(name))).toEqual([]);
    expect(list.body.totalCount).toBe(listed.length);
  });
});

/** An inbound endpoint of the organization: its id and its URL with the token. */
async function inboundEndpoint(client: Client) {
  const res = await client.post('/v1/inbound-endpoints', { name: 'Website contact form', source: 'WEBFORM' });
  expect(res.status).toBe(201);
  return res.body.inboundEndpoint as { id: string; url: string };
}

/** Long enough for a starter organization's bucket to gain a token and a half. */
const refilled = () => new Promise((resolve) => setTimeout(resolve, (1000 / starter.rateLimit) * 1.5));

describe('rate limits of inbound endpoints (no API key): each post counts against its organization’s plan', () => {
  it('answers posts beyond a starter organization’s burst with 429 RATE_LIMITED and Retry-After, records only the admitted ones, and still admits another organization’s endpoint', async () => {
    const busy = await api.organization({ usagePlan: 'starter' });
    const other = await api.organization({ usagePlan: 'starter' });
    const busyEndpoint = await inboundEndpoint(busy.client);
    const otherEndpoint = await inboundEndpoint(other.client);
    // Creating the endpoint took a token from the same bucket: wait until it is refilled, so the burst meets a full one.
    await refilled();
    // The 60 parallel posts a starter organization's endpoint used to answer all with 201.
    const attempts = starter.burstLimit * 3;
    const responses = await Promise.all(
      Array.from({ length: attempts }, (_, i) => postForm(busyEndpoint.url, { email: `sender${i}@example.com`, message: `Form entry ${i}` })),
    );
    // At that moment, the other organization's endpoint is still admitted: the limit is the organization's, not the route's.
    const elsewhere = await postForm(otherEndpoint.url, { email: 'elsewhere@example.com', message: 'Another organization' });
    expect(elsewhere.status).toBe(201);

    const admitted = responses.filter((r) => r.status === 201);
    const limited = responses.filter((r) => r.status === 429);
    expect(admitted.length + limited.length).toBe(attempts);
    expect(admitted.length).toBeGreaterThanOrEqual(starter.burstLimit);
    expect(limited.length).toBeGreaterThan(0);
    for (const response of limited) {
      expect(await response.json()).toEqual({
        success: false,
        message: expect.stringContaining('Too many requests'),
        error: { status: 429, message: expect.any(String), code: 'RATE_LIMITED' },
      });
      expect(response.headers.get('retry-after')).toBe('1');
    }
    // The burst drained the bucket this read is metered against too, so it waits for a token.
    await refilled();
    const recorded = await busy.client.get('/v1/inquiries?limit=1');
    expect(recorded.status).toBe(200);
    expect(recorded.body.totalCount).toBe(admitted.length);
  });

  it('counts a post with a wrong token against the endpoint’s organization', async () => {
    const { client } = await api.organization({ usagePlan: 'starter' });
    const created = await inboundEndpoint(client);
    const wrong = created.url.replace(/token=.*/, 'token=inb_wrongwrongwrongwrongwrongwrongwron');
    const statuses = await Promise.all(Array.from({ length: starter.burstLimit * 4 }, () => postForm(wrong, { email: 'x@example.com' }).then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([401, 429]));
    // A fresh bucket admits a burst of this size whole; the one the wrong posts drained refills only at rateLimit a second.
    const right = await Promise.all(Array.from({ length: starter.burstLimit }, (_, i) => postForm(created.url, { email: `right${i}@example.com` }).then((r) => r.status)));
    expect(right).toContain(429);
  });

  it('refuses an unknown endpoint id with 401 before metering: it counts against nobody', async () => {
    const unknown = `${api.url}/v1/inbound/inbound_01HZZZZZZZZZZZZZZZZZZZZZZZ?token=inb_x`;
    const statuses = await Promise.all(Array.from({ length: starter.burstLimit * 4 }, () => postForm(unknown, { email: 'x@example.com' }).then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([401]));
  });
});

describe('the local limiter (API Gateway’s usage-plan metering)', () => {
  it('refills the bucket at the plan’s rate per second up to its burst', () => {
    let now = Date.parse('2026-03-01T10:00:00Z');
    const limiter = createRateLimiter({ now: () => now });
    const admitted = (n: number) => Array.from({ length: n }, () => limiter.admit('org', starter)).filter((a) => a === 'ADMITTED').length;
    expect(admitted(starter.burstLimit + 5)).toBe(starter.burstLimit);
    now += 500;
    expect(admitted(starter.burstLimit)).toBe(starter.rateLimit / 2);
    now += 60_000;
    expect(admitted(starter.burstLimit * 2)).toBe(starter.burstLimit);
    expect(limiter.admit('another org', starter)).toBe('ADMITTED');
  });

  it('refuses with QUOTA_EXCEEDED once the day’s quota is used, and admits again on the next UTC day', () => {
    let now = Date.parse('2026-03-01T08:00:00Z');
    const limiter = createRateLimiter({ now: () => now });
    for (let i = 0; i < starter.dailyQuota; i++) {
      now += 1000 / starter.rateLimit;
      expect(limiter.admit('org', starter)).toBe('ADMITTED');
    }
    now += 60_000;
    expect(limiter.admit('org', starter)).toBe('QUOTA_EXCEEDED');
    now = Date.parse('2026-03-02T00:00:01Z');
    expect(limiter.admit('org', starter)).toBe('ADMITTED');
  });

  it('never refuses the internal plan', () => {
    const limiter = createRateLimiter({ now: () => 0 });
    const admissions = new Set(Array.from({ length: 10_000 }, () => limiter.admit('org', USAGE_PLANS.internal)));
    expect(admissions).toEqual(new Set(['ADMITTED']));
  });
});
