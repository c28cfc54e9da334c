import { describe, expect, it } from 'vitest';
import type { DemoSeed } from '#shared/resource';
import { useTestApi, type Client } from './support/api';

const api = useTestApi();

/** Every item of a list, page by page, and the totalCount each page reported. */
async function readAll(client: Client, path: string, key: string): Promise<{ items: Array<Record<string, any>>; totalCounts: number[] }> {
  const items: Array<Record<string, any>> = [];
  const totalCounts: number[] = [];
  const separator = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const res = await client.get(`${path}${separator}page=${page}&limit=3`);
    expect(res.status, path).toBe(200);
    totalCounts.push(res.body.totalCount);
    items.push(...res.body[key]);
    if (page >= res.body.totalPages) return { items, totalCounts };
  }
}

/** totalCount agrees with the rows: the pages hold exactly that many distinct items, on every page. */
async function expectCountsAgree(client: Client, path: string, key: string): Promise<Array<Record<string, any>>> {
  const { items, totalCounts } = await readAll(client, path, key);
  expect(new Set(totalCounts).size, `${path}: one totalCount on every page`).toBe(1);
  expect(items.length, `${path}: totalCount matches the rows`).toBe(totalCounts[0]);
  expect(new Set(items.map((item) => item.id)).size, `${path}: no item twice`).toBe(items.length);
  return items;
}

describe('the demo organization', () => {
  it('has counters that agree with the rows on every list, including each filter', async () => {
    const { client, demo } = await api.organization({ demo: true });
    const leads = await expectCountsAgree(client, '/v1/leads', 'leads');
    expect(leads.map((lead) => lead.id)).toEqual(demo!.leadIds);
    expect(leads).toHaveLength(9);
    const members = await expectCountsAgree(client, '/v1/organization/members', 'members');
    expect(members.map((member) => member.id)).toEqual(demo!.memberIds);
    expect(members).toHaveLength(4);
    expect((await expectCountsAgree(client, '/v1/policies', 'policies')).map((policy) => policy.id).sort()).toEqual([...(demo!.policyIds as number[])].sort());
    expect((await expectCountsAgree(client, '/v1/faqs', 'faqs')).map((faq) => faq.id).sort()).toEqual([...(demo!.faqIds as number[])].sort());
    expect((await expectCountsAgree(client, '/v1/companies', 'companies')).map((company) => company.id).sort()).toEqual([...(demo!.companyIds as string[])].sort());
    const appointments = await expectCountsAgree(client, '/v1/appointments', 'appointments');
    expect(appointments.map((appointment) => appointment.id).sort()).toEqual([...(demo!.appointmentIds as string[])].sort());
    for (const status of ['NEW', 'CONTACTED', 'QUALIFIED', 'QUOTED', 'WON', 'LOST']) {
      const byStatus = await expectCountsAgree(client, `/v1/leads?status=${status}`, 'leads');
      expect(byStatus.length, status).toBe(leads.filter((lead) => lead.status === status).length);
    }

    // Each member has leads of their own, counted exactly; the two newest and the lost one are nobody's.
    const assigned: Record<string, string[]> = {};
    for (const member of members) {
      const mine = await expectCountsAgree(client, `/v1/leads?assignedMemberId=${member.id}`, 'leads');
      expect(mine.map((lead) => lead.id)).toEqual(leads.filter((lead) => lead.assignedMemberId === member.id).map((lead) => lead.id));
      assigned[member.lastName] = mine.map((lead) => `${lead.firstName} ${lead.lastName}`);
    }
    expect(assigned, 'demo leads by assignee').toEqual({
      Mitchell: ['Amelia Brown', 'Lucas van der Berg'],
      Russo: ['Charlotte Williams'],
      Sharma: ['Jack Thompson'],
      Walsh: ['Noah Patel', 'William Chen'],
    });
    expect(leads.filter((lead) => lead.assignedMemberId === null).map((lead) => `${lead.firstName} ${lead.lastName}`)).toEqual(['Olivia Nguyen', 'Mia Russo', "Isla O'Connor"]);

    const inquiries = await expectCountsAgree(client, '/v1/inquiries', 'inquiries');
    const demoInquiriesBySource = { CALL: 6, EMAIL: 3, CHATBOT: 2, SMS: 2, WEBFORM: 2 };
    for (const [source, count] of Object.entries(demoInquiriesBySource)) {
      const bySource = await expectCountsAgree(client, `/v1/inquiries?source=${source}`, 'inquiries');
      expect(bySource.length, source).toBe(inquiries.filter((inquiry) => inquiry.source === source).length);
      expect(bySource.length, `demo inquiries of source ${source}`).toBe(count);
    }
    const noted: string[] = [];
    for (const lead of leads) {
      const byLead = await expectCountsAgree(client, `/v1/inquiries?leadId=${lead.id}`, 'inquiries');
      expect(byLead.length).toBe(inquiries.filter((inquiry) => inquiry.leadId === lead.id).length);
      const activities = await expectCountsAgree(client, `/v1/leads/${lead.id}/activities`, 'activities');
      expect(activities.map((activity) => activity.event)).toContain('LEAD_CREATED');
      if (activities.some((activity) => activity.event === 'NOTE_ADDED')) noted.push(`${lead.firstName} ${lead.lastName}`);
    }
    expect(noted.sort(), 'demo leads with a note on their timeline').toEqual(['Amelia Brown', 'Jack Thompson']);
    expect(leads.filter((lead) => lead.phone && !lead.email).map((lead) => `${lead.firstName} ${lead.lastName}`), 'a demo lead known only by phone').toEqual(['Mia Russo']);

    const companyIds = demo!.companyIds as string[];
    expect(companyIds).toHaveLength(3);
    const notesPerCompany: number[] = [];
    for (const companyId of companyIds) {
      notesPerCompany.push((await expectCountsAgree(client, `/v1/companies/${companyId}/notes`, 'notes')).length);
      const byCompany = await expectCountsAgree(client, `/v1/leads?companyId=${companyId}`, 'leads');
      expect(byCompany.length).toBe(leads.filter((lead) => lead.companyId === companyId).length);
    }
    expect(notesPerCompany.sort(), 'notes of the three demo companies').toEqual([1, 3, 4]);
    expect(leads.filter((lead) => lead.companyId !== null).map((lead) => `${lead.firstName} ${lead.lastName}`).sort(), 'demo leads linked to a company').toEqual(['Amelia Brown', 'Jack Thompson']);

    const services = (await client.get('/v1/organization/services')).body;
    expect([services.totalCategories, services.totalServices]).toEqual([3, 5]);
    expect(services.totalCategories).toBe(services.categories.length);
    expect(services.totalServices).toBe(services.categories.reduce((sum: number, category: { services: unknown[] }) => sum + category.services.length, 0));
  });

  it('exercises every kind of record: calls with transcripts, each pricing type, scenarios linked to services', async () => {
    const { client, demo } = await api.organization({ demo: true });
    const [call] = (await client.get('/v1/inquiries?source=CALL&limit=1')).body.inquiries;
    const single = (await client.get(`/v1/inquiries/${call.id}`)).body;
    // The newest demo call: a conversation of 7 turns with 4 key points.
    expect([single.data.transcripts.length, single.data.keyPoints.length]).toEqual([7, 4]);
    for (const serviceId of demo!.serviceIds as number[]) {
      const { service } = (await client.get(`/v1/services/${serviceId}`)).body;
      const { scenario } = (await client.get(`/v1/scenarios/${service.scenario.id}`)).body;
      expect(scenario.tradeServiceId).toBe(service.id);
    }
    const pricingTypes = new Set<string>();
    for (const productId of demo!.productIds as number[]) {
      const res = await client.put(`/v1/products/${productId}`, { isActive: true });
      expect(res.status).toBe(200);
      pricingTypes.add(res.body.product.pricingType);
    }
    expect([...pricingTypes].sort()).toEqual(['FIXED', 'NONE', 'RANGE']);
    expect([(demo!.transferIds as number[]).length, (demo!.faqIds as number[]).length]).toEqual([3, 4]);
  });

  it('is whole when it is made: its SMS thread’s messages already carry the local carrier’s receipts', async () => {
    const { client, demo, organizationId } = await api.organization({ demo: true });
    const delivered = async (threadId: string, ids: string[]) => {
      const { messages } = (await client.get(`/v1/sms?messageThreadId=${threadId}`)).body;
      expect(messages.map((message: { id: string; status: string }) => [message.id, message.status]).sort()).toEqual(ids.map((id) => [id, 'DELIVERED']).sort());
    };
    await delivered(demo!.smsThreadId as string, demo!.smsIds as string[]);
    // The SMS seed alone, read the moment it returns: the carrier's receipts come 100 ms after each send.
    const { seedSmsThread } = await import('../functions/sms/demo');
    const { leads } = (await client.get('/v1/leads?email=olivia.nguyen@example.com.au')).body;
    const { members } = (await client.get('/v1/organization/members?limit=100')).body;
    const thread = await seedSmsThread(organizationId, leads, members);
    await delivered(thread!.threadId, thread!.messageIds);
  });
});

describe('a new, empty organization', () => {
  it.each([
    ['/v1/leads', 'leads'],
    ['/v1/inquiries', 'inquiries'],
    ['/v1/organization/members', 'members'],
    ['/v1/policies', 'policies'],
    ['/v1/faqs', 'faqs'],
    ['/v1/companies', 'companies'],
    ['/v1/appointments', 'appointments'],
  ])('answers %s with an empty first page', async (path, key) => {
    const { client } = await api.organization();
    expect((await client.get(path)).body).toEqual({ [key]: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it('has no services, and none of the demo organization’s records', async () => {
    const demoOrg = await api.organization({ demo: true });
    const { client } = await api.organization();
    expect((await client.get('/v1/organization/services')).body).toEqual({ categories: [], totalCategories: 0, totalServices: 0 });
    const companyId = (demoOrg.demo!.companyIds as string[])[0];
    expect((await client.get(`/v1/companies/${companyId}/notes`)).status).toBe(404);
    expect((await client.get(`/v1/services/${(demoOrg.demo!.serviceIds as number[])[0]}`)).status).toBe(404);
  });
});

describe('the demo seeds', () => {
  const seed = (after?: string[]): DemoSeed => ({ after, run: async () => ({}) });

  it('run in waves, each seed after every seed it names and in list order within a wave', async () => {
    const { seedWaves } = await import('../infra/demo/index');
    const { resourceFileExports } = await import('../infra/resource-files');
    const seeds = await resourceFileExports<DemoSeed>('demo.ts', 'demoSeed');
    const waves = seedWaves(seeds);
    expect(waves.flat().sort()).toEqual([...seeds.keys()].sort());
    const waveOf = new Map(waves.flatMap((wave, i) => wave.map((name) => [name, i] as const)));
    for (const [name, { after = [] }] of seeds) for (const before of after) expect(waveOf.get(before)!, `${name} after ${before}`).toBeLessThan(waveOf.get(name)!);
    expect(waves[0]!.length, 'seeds that wait on none run together').toBeGreaterThan(1);
    expect(seedWaves(new Map([['a', seed(['c'])], ['b', seed()], ['c', seed(['b'])], ['d', seed()]]))).toEqual([['b', 'd'], ['c'], ['a']]);
  });

  it('that wait on each other, or on a resource without a seed, fail loudly', async () => {
    const { seedWaves } = await import('../infra/demo/index');
    expect(() => seedWaves(new Map([['a', seed(['b'])], ['b', seed(['a'])]]))).toThrow(/wait on each other.*a, b/);
    expect(() => seedWaves(new Map([['a', seed(['missing'])]]))).toThrow(/a$/);
  });
});
