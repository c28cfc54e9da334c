import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { INBOUND_USAGE_PLANS, inboundUsageIdentifierKey, USAGE_PLANS, usageIdentifierKey } from '#shared/auth/usage-plans';
import { createUnknownIdGuard, UNKNOWN_ID_LIMITS } from '../functions/inbound-endpoints/unknown-ids';
import { createRateLimiter, createUsagePlanMeter, meteredPlanOf } from '../infra/local/rate-limiter';
import { countIndexQueries } from './support/dynamo-calls';
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

const inboundStarter = INBOUND_USAGE_PLANS.starter;
const rateLimited = { success: false, message: expect.stringContaining('Too many requests'), error: { status: 429, message: expect.any(String), code: 'RATE_LIMITED' } };

describe('rate limits of inbound endpoints (no API key): each post counts against its organization’s inbound plan, apart from its API keys', () => {
  it('answers posts beyond a starter organization’s inbound burst with 429 RATE_LIMITED and Retry-After, records only the admitted ones, and still admits another organization’s endpoint and its own API key', async () => {
    const busy = await api.organization({ usagePlan: 'starter' });
    const other = await api.organization({ usagePlan: 'starter' });
    const busyEndpoint = await inboundEndpoint(busy.client);
    const otherEndpoint = await inboundEndpoint(other.client);
    // A bot at a form's public URL: six times the inbound burst, at once.
    const attempts = inboundStarter.burstLimit * 6;
    const responses = await Promise.all(
      Array.from({ length: attempts }, (_, i) => postForm(busyEndpoint.url, { email: `sender${i}@example.com`, message: `Form entry ${i}` })),
    );
    // At that moment, the other organization's endpoint is still admitted: the limit is the organization's, not the route's.
    const elsewhere = await postForm(otherEndpoint.url, { email: 'elsewhere@example.com', message: 'Another organization' });
    expect(elsewhere.status).toBe(201);
    // And the organization's own integrations too: its API key's bucket is not the one the posts drained.
    const keyed = await Promise.all(Array.from({ length: starter.burstLimit - 1 }, () => busy.client.get('/v1/inquiries?limit=1')));
    expect(keyed.map((res) => res.status)).toEqual(keyed.map(() => 200));

    const admitted = responses.filter((r) => r.status === 201);
    const limited = responses.filter((r) => r.status === 429);
    expect(admitted.length + limited.length).toBe(attempts);
    expect(admitted.length).toBeGreaterThanOrEqual(inboundStarter.burstLimit);
    expect(limited.length).toBeGreaterThan(0);
    for (const response of limited) {
      expect(await response.json()).toEqual(rateLimited);
      expect(response.headers.get('retry-after')).toBe('1');
    }
    expect(keyed.at(-1)!.body.totalCount).toBe(admitted.length);
  });

  it('counts a post with a wrong token against the endpoint’s organization’s inbound plan', async () => {
    const { client } = await api.organization({ usagePlan: 'starter' });
    const created = await inboundEndpoint(client);
    const wrong = created.url.replace(/token=.*/, 'token=inb_wrongwrongwrongwrongwrongwrongwron');
    const statuses = await Promise.all(Array.from({ length: inboundStarter.burstLimit * 4 }, () => postForm(wrong, { email: 'x@example.com' }).then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([401, 429]));
    // A fresh bucket admits a burst of this size whole; the one the wrong posts drained refills only at rateLimit a second.
    const right = await Promise.all(Array.from({ length: inboundStarter.burstLimit }, (_, i) => postForm(created.url, { email: `right${i}@example.com` }).then((r) => r.status)));
    expect(right).toContain(429);
  });

  it('refuses an unknown endpoint id with 401 before metering: it counts against nobody', async () => {
    const unknown = `${api.url}/v1/inbound/inbound_01HZZZZZZZZZZZZZZZZZZZZZZZ?token=inb_x`;
    const statuses = await Promise.all(Array.from({ length: starter.burstLimit * 4 }, () => postForm(unknown, { email: 'x@example.com' }).then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([401]));
  });
});

// Last of the tests on the server: its inbound authorizer refuses this source's lookups of new ids for a minute after.
describe('posts to endpoint ids that do not exist, from one source (the inbound authorizer reads gsi1 for each id it has not found)', () => {
  it(`cost at most ${UNKNOWN_ID_LIMITS.perSource} reads of gsi1 a minute however many ids, each answered 401, and leave an endpoint found before reachable from that source`, async () => {
    const { client } = await api.organization();
    const form = await inboundEndpoint(client);
    expect((await postForm(form.url, { email: 'before@example.com' })).status).toBe(201);
    // Ids of a year ago, each different, as a scanner walks them.
    const since = Date.parse('2025-06-01T00:00:00Z');
    const ids = Array.from({ length: UNKNOWN_ID_LIMITS.perSource * 4 }, (_, i) => `inbound_${ulid(since + i, () => 0)}`);
    const { queries, answer: statuses } = await countIndexQueries('gsi1', () =>
      Promise.all(ids.map((id) => postForm(`${api.url}/v1/inbound/${id}?token=inb_x`, { email: 'x@example.com' }).then((r) => r.status))),
    );
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(queries).toBeGreaterThan(0);
    expect(queries).toBeLessThanOrEqual(UNKNOWN_ID_LIMITS.perSource);
    // An id found missing is not read again, from this source or any.
    const again = await countIndexQueries('gsi1', () => postForm(`${api.url}/v1/inbound/${ids[0]}?token=inb_x`, { email: 'x@example.com' }));
    expect({ status: again.answer.status, queries: again.queries }).toEqual({ status: 401, queries: 0 });
    // The form the source posted to before is read as ever, and takes the post.
    expect((await postForm(form.url, { email: 'after@example.com' })).status).toBe(201);
  });
});

describe('the inbound authorizer’s memory of unknown ids and sources (one per container)', () => {
  const limits = { ...UNKNOWN_ID_LIMITS, perSource: 3, remembered: 5 };
  const old = (i: number) => `inbound_${ulid(Date.parse('2025-06-01T00:00:00Z') + i, () => 0)}`;
  const lookups = (guard: ReturnType<typeof createUnknownIdGuard>, ids: string[], source: string) =>
    ids.map((id) => {
      const settle = guard.lookUp(id, source);
      settle?.(false);
      return settle !== undefined;
    });

  it('reads perSource unknown ids of one source a window, then none until the window ends; another source reads on', () => {
    let now = Date.parse('2026-03-01T10:00:00Z');
    const guard = createUnknownIdGuard({ now: () => now, limits });
    expect(lookups(guard, [0, 1, 2, 3, 4].map(old), '203.0.113.9')).toEqual([true, true, true, false, false]);
    expect(lookups(guard, [5].map(old), '198.51.100.7')).toEqual([true]);
    now += limits.windowMs - 1;
    expect(lookups(guard, [6].map(old), '203.0.113.9')).toEqual([false]);
    now += 1;
    expect(lookups(guard, [6, 7, 8, 9].map(old), '203.0.113.9')).toEqual([true, true, true, false]);
  });

  it('charges nothing for an id that exists, and always reads one found before', () => {
    const guard = createUnknownIdGuard({ now: () => Date.parse('2026-03-01T10:00:00Z'), limits });
    for (let i = 0; i < 10; i++) guard.lookUp(old(100), 'shared egress')!(true);
    expect(lookups(guard, [0, 1, 2, 3].map(old), 'shared egress')).toEqual([true, true, true, false]);
    expect(guard.lookUp(old(100), 'shared egress')).toBeDefined();
  });

  it('refuses an id found missing unread for unknownForMs, from any source, but not one minted within youngIdMs (the index may lag)', () => {
    let now = Date.parse('2026-03-01T10:00:00Z');
    const guard = createUnknownIdGuard({ now: () => now, limits });
    const young = `inbound_${ulid(now - limits.youngIdMs / 2)}`;
    expect(lookups(guard, [old(0), young], 'a')).toEqual([true, true]);
    expect(lookups(guard, [old(0)], 'b')).toEqual([false]);
    expect(lookups(guard, [young], 'b')).toEqual([true]);
    now += limits.unknownForMs;
    expect(lookups(guard, [old(0)], 'c')).toEqual([true]);
  });

  it('remembers at most `remembered` sources, the oldest forgotten first', () => {
    const guard = createUnknownIdGuard({ now: () => Date.parse('2026-03-01T10:00:00Z'), limits });
    expect(lookups(guard, [0, 1, 2, 3].map(old), 'first')).toEqual([true, true, true, false]);
    for (let i = 0; i < limits.remembered; i++) lookups(guard, [old(10 + i)], `other ${i}`);
    expect(lookups(guard, [old(20)], 'first')).toEqual([true]);
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

  it('meters an organization’s inbound posts apart from its API keys: its inbound day used up, its keys are still admitted', async () => {
    let now = Date.parse('2026-03-01T08:00:00Z');
    const meter = createUsagePlanMeter(meteredPlanOf(async () => 'starter'), { now: () => now });
    const organizationId = 'org_01JZ0000000000000000000000';
    for (let i = 0; i < inboundStarter.dailyQuota; i++) {
      now += 1000 / inboundStarter.rateLimit;
      expect(await meter(inboundUsageIdentifierKey(organizationId))).toBe('ADMITTED');
    }
    now += 60_000;
    expect(await meter(inboundUsageIdentifierKey(organizationId))).toBe('QUOTA_EXCEEDED');
    expect(await meter(usageIdentifierKey(organizationId))).toBe('ADMITTED');
    now = Date.parse('2026-03-02T00:00:01Z');
    expect(await meter(inboundUsageIdentifierKey(organizationId))).toBe('ADMITTED');
  });

  it('never refuses the internal plan', () => {
    const limiter = createRateLimiter({ now: () => 0 });
    const admissions = new Set(Array.from({ length: 10_000 }, () => limiter.admit('org', USAGE_PLANS.internal)));
    expect(admissions).toEqual(new Set(['ADMITTED']));
  });
});
