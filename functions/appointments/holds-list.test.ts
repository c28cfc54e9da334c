import { describe, expect, it, vi } from 'vitest';
import { HOLD_MINUTES } from './availability-schema';
import { useTestApi } from '../../test/support/api';
import { created } from '../../test/support/fixtures';

/** GET /v1/availability/holds: the slots held right now that no appointment has booked, the one to expire first first. */

const api = useTestApi();
const HOLD_MS = HOLD_MINUTES * 60_000;

/**
 * Runs `check` with the time records are made and read at (Date.now, which the in-process server reads too) stopped
 * at `atMs`, then lets it run on.
 */
async function atTime<T>(atMs: number, check: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(atMs);
    return await check();
  } finally {
    vi.useRealTimers();
  }
}

/** Monday 4 January 2027 in Sydney (summer time, +11:00): days ahead of the clock, which starts at the real time. */
const monday = (clock: string) => new Date(`2027-01-04T${clock}:00+11:00`).toISOString();

/** A plumber in Sydney open 08:00–17:00 on Mondays, with one member, a lead and a one-hour service. */
async function plumber() {
  const org = await api.organization();
  const { client } = org;
  await client.patch('/v1/organization', { timezone: 'Australia/Sydney', businessHours: { monday: [{ open: '08:00', close: '17:00' }] } });
  const kate = await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
  const lead = await created(client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', phone: '+61412345001' });
  const service = await created(client, '/v1/services', 'service', { name: 'Blocked drain clearing', description: 'Clearing blocked drains', followUpQuestions: [], duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'NONE' });
  const hold = async (clock: string) => {
    const res = await client.post('/v1/availability/holds', { serviceId: service.id, startsAt: monday(clock), memberId: kate.id, leadId: lead.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.hold as { id: string; expiresAt: string; createdAt: string };
  };
  const list = async (params = '') => {
    const res = await client.get(`/v1/availability/holds${params}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { holds: { id: string }[]; totalCount: number; totalPages: number; currentPage: number; nextCursor: string | null };
  };
  const ids = async (params = '') => (await list(params)).holds.map((hold) => hold.id);
  return { ...org, lead, hold, list, ids };
}

describe('GET /v1/availability/holds', () => {
  it('answers an empty page when nothing is held, then each live hold as it was made, the one to expire first first', async () => {
    const { hold, list } = await plumber();
    expect(await list()).toEqual({ holds: [], totalCount: 0, totalPages: 0, currentPage: 1, nextCursor: null });
    const later = await hold('10:00');
    const latest = await hold('09:00');
    // Made last, so it expires last, though its slot is the earliest.
    const last = await hold('08:00');
    expect(Date.parse(last.expiresAt)).toBeGreaterThan(Date.parse(latest.expiresAt));
    expect(await list()).toEqual({ holds: [later, latest, last], totalCount: 3, totalPages: 1, currentPage: 1, nextCursor: null });
  });

  it('leaves out a hold once an appointment books it; of two bookings of one hold at once, one books it', async () => {
    const { client, lead, hold, ids } = await plumber();
    const booked = await hold('09:00');
    const kept = await hold('11:00');
    const bookings = await Promise.all([1, 2].map(() => client.post('/v1/appointments', { leadId: lead.id, holdId: booked.id })));
    expect(bookings.map((res) => [res.status, res.body.error?.code]).sort()).toEqual([[201, undefined], [409, 'HOLD_EXPIRED']]);
    expect(await ids()).toEqual([kept.id]);
  });

  it('lists a hold until the millisecond before its expiresAt, and not at it, when booking it answers HOLD_EXPIRED', async () => {
    const { client, lead, hold, list } = await plumber();
    const held = await hold('09:00');
    const expiresMs = Date.parse(held.expiresAt);
    expect(expiresMs - Date.parse(held.createdAt)).toBe(HOLD_MS);
    await atTime(expiresMs - 1, async () => expect(await list()).toMatchObject({ holds: [held], totalCount: 1 }));
    await atTime(expiresMs, async () => {
      expect(await list()).toMatchObject({ holds: [], totalCount: 0 });
      const booking = await client.post('/v1/appointments', { leadId: lead.id, holdId: held.id });
      expect([booking.status, booking.body.error?.code]).toEqual([409, 'HOLD_EXPIRED']);
    });
  });

  it('lists only the organization’s own holds while another organization’s are live', async () => {
    const first = await plumber();
    const second = await plumber();
    const mine = await first.hold('09:00');
    const theirs = await second.hold('09:00');
    expect(await first.ids()).toEqual([mine.id]);
    expect(await second.ids()).toEqual([theirs.id]);
  });

  it('pages by limit and by cursor, and a cursor read after its page’s holds expired goes on from the live ones', async () => {
    const { hold, list, ids } = await plumber();
    const made: Awaited<ReturnType<typeof hold>>[] = [];
    for (const clock of ['08:00', '09:00', '10:00']) made.push(await hold(clock));
    const first = await list('?limit=2');
    expect(first).toMatchObject({ holds: made.slice(0, 2), totalCount: 3, totalPages: 2 });
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(await ids('?limit=2&page=2')).toEqual([made[2]!.id]);
    expect(await list(`?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`)).toMatchObject({ holds: [made[2]], nextCursor: null });
    // The first two expire (the third was made after them): the cursor after them still reads the third, now the
    // first live hold.
    expect(Date.parse(made[2]!.expiresAt)).toBeGreaterThan(Date.parse(made[1]!.expiresAt));
    await atTime(Date.parse(made[1]!.expiresAt), async () =>
      expect(await list(`?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`)).toMatchObject({ holds: [made[2]], totalCount: 1, nextCursor: null }),
    );
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=', 'limit'],
    ['page=0', 'page'],
    ['cursor=', 'cursor'],
    ['updatedSince=2026-01-01T00:00:00Z', 'updatedSince'],
    ['expiresBefore=2027-01-01T00:00:00Z', 'expiresBefore'],
  ])('answers 400 naming the parameter for %s', async (params, field) => {
    const { client } = await plumber();
    const res = await client.get(`/v1/availability/holds?${params}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((detail: { path: string }) => detail.path)).toContain(field);
  });

  it('answers 400 for a cursor of another list, or one a character short', async () => {
    const { client, hold, list } = await plumber();
    for (const clock of ['08:00', '09:00']) await hold(clock);
    const cursor = (await list('?limit=1')).nextCursor!;
    const leads = await client.get('/v1/leads?limit=1');
    for (const foreign of [cursor.slice(0, -1), leads.body.nextCursor ?? 'not-a-cursor']) {
      const res = await client.get(`/v1/availability/holds?limit=1&cursor=${encodeURIComponent(foreign)}`);
      expect(res.status, foreign).toBe(400);
      expect(res.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['cursor']);
    }
  });
});
