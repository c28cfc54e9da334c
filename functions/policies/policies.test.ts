import { describe, expect, it } from 'vitest';
import { policies as policyCollection } from './collection';
import { crudStore as textCollectionStore } from '#shared/crud/store';
import { useTestApi } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { ISO_MS } from '../../test/support/fixtures';

const api = useTestApi();

/** An organization with `count` policies, created through the repository (the API has no POST for policies). */
async function withPolicies(count: number) {
  const org = await api.organization();
  const policies = [];
  for (let i = 1; i <= count; i++) policies.push(await textCollectionStore(policyCollection).create(org.organizationId, { title: `Policy ${i}`, content: `Content ${i}`, isActive: true }));
  return { ...org, policies };
}

describe('GET /v1/policies', () => {
  it('lists the demo policies newest first with the pagination envelope', async () => {
    const { client, demo } = await api.demoOrganization();
    const res = await client.get('/v1/policies');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalPages: 1, currentPage: 1, totalCount: 4 });
    expect(res.body.policies.map((policy: { id: number }) => policy.id)).toEqual([...(demo!.policyIds as number[])].reverse());
    expect(res.body.policies.at(-1)).toEqual({ id: 1, title: 'Cancellation policy', content: expect.stringContaining('24 hours'), isActive: true, updatedAt: expect.stringMatching(ISO_MS) });
    expect(res.body.policies.map((policy: { title: string; isActive: boolean }) => [policy.title, policy.isActive])).toContainEqual(['After-hours call-outs', false]);
  });

  it('answers with exactly id, title, content and isActive for each policy', async () => {
    const { client } = await withPolicies(1);
    expect((await client.get('/v1/policies')).body).toEqual({
      policies: [{ id: 1, title: 'Policy 1', content: 'Content 1', isActive: true, updatedAt: expect.stringMatching(ISO_MS) }],
      totalPages: 1,
      currentPage: 1,
      totalCount: 1,
      nextCursor: null,
    });
  });

  it('pages with page and limit, and answers an empty page past the end', async () => {
    const { client } = await withPolicies(5);
    const page2 = await client.get('/v1/policies?page=2&limit=2');
    expect(page2.body).toMatchObject({ totalPages: 3, currentPage: 2, totalCount: 5 });
    expect(page2.body.policies.map((policy: { id: number }) => policy.id)).toEqual([3, 2]);
    const past = await client.get('/v1/policies?page=4&limit=2');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ policies: [], totalPages: 3, currentPage: 4, totalCount: 5, nextCursor: null });
  });

  it('answers an empty first page for an organization with no policies', async () => {
    const { client } = await api.organization();
    expect((await client.get('/v1/policies')).body).toEqual({ policies: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it("never shows another organization's policies", async () => {
    await withPolicies(2);
    const { client } = await api.organization();
    expect((await client.get('/v1/policies')).body.totalCount).toBe(0);
  });

  it.each(['page=0', 'page=x', 'limit=0', 'limit=101', 'limit=2.5'])('answers 400 for %s', async (query) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/policies?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(query.split('=')[0]);
  });

  it('reads page 1 with one Query and one counter read, however many policies there are', async () => {
    const { client } = await withPolicies(4);
    const calls = await countDynamoCalls(() => client.get('/v1/policies?limit=2'));
    expect(calls.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  });
});

describe('PUT /v1/policies/{policyId}', () => {
  it('changes only the fields sent and keeps the others', async () => {
    const { client } = await withPolicies(2);
    const res = await client.put('/v1/policies/1', { content: 'Cancel up to 48 hours before.', isActive: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ policy: { id: 1, title: 'Policy 1', content: 'Cancel up to 48 hours before.', isActive: false, updatedAt: expect.stringMatching(ISO_MS) } });
    const listed = (await client.get('/v1/policies')).body.policies;
    expect(listed).toEqual([
      { id: 2, title: 'Policy 2', content: 'Content 2', isActive: true, updatedAt: expect.stringMatching(ISO_MS) },
      { id: 1, title: 'Policy 1', content: 'Cancel up to 48 hours before.', isActive: false, updatedAt: expect.stringMatching(ISO_MS) },
    ]);
  });

  it('trims the title', async () => {
    const { client } = await withPolicies(1);
    expect((await client.put('/v1/policies/1', { title: '  Refunds  ' })).body.policy.title).toBe('Refunds');
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['an unknown field', { category: 'billing' }, 'category'],
    ['a blank title', { title: '   ' }, 'title'],
    ['content that is not a string', { content: 12 }, 'content'],
    ['isActive that is not a boolean', { isActive: 'false' }, 'isActive'],
  ])('answers 400 for %s, naming it, and changes nothing', async (_, body, field) => {
    const { client, policies } = await withPolicies(1);
    const res = await client.put('/v1/policies/1', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.message).toContain(field);
    expect((await client.get('/v1/policies')).body.policies[0]).toEqual(policies[0]);
  });

  it.each(['abc', '1.5', '0'])('answers the policy id %s as an unknown policy: 404', async (policyId) => {
    const { client } = await withPolicies(1);
    const res = await client.put(`/v1/policies/${policyId}`, { isActive: false });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Policy not found');
  });

  it('answers 404 for an unknown policy, and creates nothing', async () => {
    const { client } = await withPolicies(1);
    const res = await client.put('/v1/policies/2', { title: 'Ghost' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Policy not found', error: { status: 404, message: 'Policy not found', code: 'NOT_FOUND' } });
    expect((await client.get('/v1/policies')).body.totalCount).toBe(1);
  });

  it("answers 404 for another organization's policy and leaves it unchanged", async () => {
    const owner = await withPolicies(1);
    const other = await api.organization();
    expect((await other.client.put('/v1/policies/1', { title: 'Taken over' })).status).toBe(404);
    expect((await owner.client.get('/v1/policies')).body.policies[0].title).toBe('Policy 1');
  });

  it('costs one conditional update', async () => {
    const { client } = await withPolicies(1);
    expect(await countDynamoCalls(() => client.put('/v1/policies/1', { isActive: false }))).toEqual(['UpdateItemCommand']);
  });
});

describe('POST /v1/policies', () => {
  it('answers 201 with the policy, trimmed, active by default, and lists it first', async () => {
    const { client } = await withPolicies(1);
    const res = await client.post('/v1/policies', { title: ' Warranty ', content: 'Workmanship is guaranteed for 6 years.' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ policy: { id: 2, title: 'Warranty', content: 'Workmanship is guaranteed for 6 years.', isActive: true, updatedAt: expect.stringMatching(ISO_MS) } });
    const listed = (await client.get('/v1/policies')).body;
    expect(listed.policies[0]).toEqual(res.body.policy);
    expect(listed.totalCount).toBe(2);
  });

  it('keeps isActive false', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/policies', { title: 'Draft', content: 'Not yet', isActive: false });
    expect(res.body.policy).toEqual({ id: 1, title: 'Draft', content: 'Not yet', isActive: false, updatedAt: expect.stringMatching(ISO_MS) });
  });

  it.each([
    ['a missing title', { content: 'x' }, 'title'],
    ['a blank content', { title: 'x', content: ' ' }, 'content'],
    ['an unknown field', { title: 'x', content: 'y', category: 'billing' }, 'category'],
  ])('answers 400 for %s, naming it, and writes nothing', async (_, body, field) => {
    const { client } = await api.organization();
    const calls = await countDynamoCalls(async () => {
      const res = await client.post('/v1/policies', body);
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe(field);
    });
    expect(calls).toEqual([]);
  });

  it('costs one sequence update and one transaction', async () => {
    const { client } = await api.organization();
    expect(await countDynamoCalls(() => client.post('/v1/policies', { title: 'T', content: 'C' }))).toEqual(['UpdateItemCommand', 'TransactWriteItemsCommand']);
  });
});

describe('DELETE /v1/policies/{policyId}', () => {
  it('removes the policy and lowers totalCount; a second delete answers 404', async () => {
    const { client } = await withPolicies(3);
    const res = await client.delete('/v1/policies/2');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: 2 });
    const listed = (await client.get('/v1/policies')).body;
    expect(listed.policies.map((policy: { id: number }) => policy.id)).toEqual([3, 1]);
    expect(listed.totalCount).toBe(2);
    expect((await client.delete('/v1/policies/2')).status).toBe(404);
    expect((await client.get('/v1/policies')).body.totalCount).toBe(2);
  });

  it("answers 404 for another organization's policy and leaves it", async () => {
    const owner = await withPolicies(1);
    const other = await api.organization();
    expect((await other.client.delete('/v1/policies/1')).status).toBe(404);
    expect((await owner.client.get('/v1/policies')).body.totalCount).toBe(1);
  });
});

describe('GET /v1/policies/{policyId}', () => {
  it('answers the policy as the list shows it, with one GetItem', async () => {
    const { client } = await withPolicies(2);
    const listed = (await client.get('/v1/policies')).body.policies;
    let res: { status: number; body: any } | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.get('/v1/policies/1');
    });
    expect(res!.status).toBe(200);
    expect(res!.body).toEqual({ policy: { id: 1, title: 'Policy 1', content: 'Content 1', isActive: true, updatedAt: expect.stringMatching(ISO_MS) } });
    expect(res!.body.policy).toEqual(listed[1]);
    expect(calls).toEqual(['GetItemCommand']);
    await client.put('/v1/policies/1', { isActive: false });
    expect((await client.get('/v1/policies/1')).body.policy.isActive).toBe(false);
  });

  it("answers 404 for a deleted policy and for another organization's, naming the policy", async () => {
    const owner = await withPolicies(2);
    await owner.client.delete('/v1/policies/2');
    const other = await api.organization();
    for (const [client, id] of [[owner.client, 2], [other.client, 1]] as const) {
      const res = await client.get(`/v1/policies/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ status: 404, message: 'Policy not found', code: 'NOT_FOUND' });
    }
  });
});
