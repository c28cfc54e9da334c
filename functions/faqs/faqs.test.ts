import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { ISO_MS } from '../../test/support/fixtures';

const api = useTestApi();

const licensed = { question: 'Are you licensed?', answer: 'Yes, licence number 123456C.' };

describe('POST /v1/faqs', () => {
  it('answers 201 with every FAQ field, trimmed, active by default', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/faqs', { question: '  Are you licensed? ', answer: ' Yes, licence number 123456C.  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ faq: { id: 1, ...licensed, isActive: true, updatedAt: expect.stringMatching(ISO_MS) } });
  });

  it('keeps isActive false, and numbers ids per organization from 1', async () => {
    const { client } = await api.organization();
    await client.post('/v1/faqs', licensed);
    const res = await client.post('/v1/faqs', { question: 'Do you work weekends?', answer: 'Saturdays only.', isActive: false });
    expect(res.body.faq).toEqual({ id: 2, question: 'Do you work weekends?', answer: 'Saturdays only.', isActive: false, updatedAt: expect.stringMatching(ISO_MS) });
    const other = await api.organization({ demo: true });
    expect((other.demo!.faqIds as number[]).length).toBeGreaterThanOrEqual(3);
    expect((await other.client.post('/v1/faqs', licensed)).body.faq.id).toBe((other.demo!.faqIds as number[]).length + 1);
  });

  it.each([
    ['a missing question', { answer: 'Yes.' }, 'question'],
    ['a blank question', { question: '   ', answer: 'Yes.' }, 'question'],
    ['a missing answer', { question: 'Why?' }, 'answer'],
    ['a blank answer', { question: 'Why?', answer: '' }, 'answer'],
    ['a question of the wrong type', { question: 1, answer: 'Yes.' }, 'question'],
    ['isActive that is not a boolean', { ...licensed, isActive: 'yes' }, 'isActive'],
    ['an unknown field', { ...licensed, category: 'general' }, 'category'],
  ])('answers 400 for %s, naming the field, without touching DynamoDB', async (_, body, field) => {
    const { client } = await api.organization();
    let status = 0;
    let message = '';
    const calls = await countDynamoCalls(async () => {
      const res = await client.post('/v1/faqs', body);
      ({ status, message } = { status: res.status, message: res.body.message });
    });
    expect(status).toBe(400);
    expect(message).toContain(field);
    expect(calls).toEqual([]);
  });

  it('costs one sequence update and one transaction (the FAQ and its counter)', async () => {
    const { client } = await api.organization();
    expect(await countDynamoCalls(() => client.post('/v1/faqs', licensed))).toEqual(['UpdateItemCommand', 'TransactWriteItemsCommand']);
  });
});

async function withFaqs(count: number) {
  const org = await api.organization();
  for (let i = 1; i <= count; i++) expect((await org.client.post('/v1/faqs', { question: `Question ${i}?`, answer: `Answer ${i}.` })).status).toBe(201);
  return org;
}

describe('one question, one FAQ', () => {
  it('answers 409 for a question another FAQ asks, ignoring case and spacing, on create and on update, and writes nothing', async () => {
    const { client } = await api.organization();
    const first = (await client.post('/v1/faqs', licensed)).body.faq;
    const second = (await client.post('/v1/faqs', { question: 'Do you work weekends?', answer: 'Saturdays only.' })).body.faq;
    const created = await client.post('/v1/faqs', { question: ' are  YOU licensed? ', answer: 'Another answer.' });
    expect(created.status).toBe(409);
    expect(created.body.error).toEqual({ status: 409, message: 'An FAQ asking "are  YOU licensed?" already exists', code: 'CONFLICT' });
    const updated = await client.patch(`/v1/faqs/${second.id}`, { question: 'ARE YOU LICENSED?', answer: 'Changed.' });
    expect(updated.status).toBe(409);
    expect(updated.body.error).toEqual({ status: 409, message: 'An FAQ asking "ARE YOU LICENSED?" already exists', code: 'CONFLICT' });
    expect((await client.get('/v1/faqs')).body).toMatchObject({ totalCount: 2, faqs: [second, first] });
  });

  it('frees a question when its FAQ asks another or goes, and lets an FAQ change only its question’s case', async () => {
    const { client } = await api.organization();
    const first = (await client.post('/v1/faqs', licensed)).body.faq;
    const recased = await client.put(`/v1/faqs/${first.id}`, { question: 'ARE you licensed?' });
    expect(recased.status).toBe(200);
    expect(recased.body.faq.question).toBe('ARE you licensed?');
    expect((await client.post('/v1/faqs', licensed)).status).toBe(409);
    expect((await client.put(`/v1/faqs/${first.id}`, { question: 'Are you insured?' })).status).toBe(200);
    expect((await client.post('/v1/faqs', licensed)).status).toBe(201);
    expect((await client.post('/v1/faqs', { question: 'Are you insured?', answer: 'Yes.' })).status).toBe(409);
    expect((await client.delete(`/v1/faqs/${first.id}`)).status).toBe(200);
    expect((await client.post('/v1/faqs', { question: 'Are you insured?', answer: 'Yes.' })).status).toBe(201);
  });

  it('lets another organization ask the same question', async () => {
    await (await api.organization()).client.post('/v1/faqs', licensed);
    const { client } = await api.organization();
    expect((await client.post('/v1/faqs', licensed)).status).toBe(201);
  });
});

describe('a text field’s length', () => {
  it('counts characters as the document’s maxLength does: an emoji is one, where JavaScript counts two', async () => {
    const { client } = await api.organization();
    const atLimit = `${'a'.repeat(499)}🔧`;
    const created = await client.post('/v1/faqs', { question: atLimit, answer: `${'🔧'.repeat(5000)}` });
    expect(created.status).toBe(201);
    expect(created.body.faq.question).toBe(atLimit);
    const over = await client.post('/v1/faqs', { question: `${'a'.repeat(500)}🔧`, answer: 'Yes.' });
    expect(over.status).toBe(400);
    expect(over.body.error.details).toEqual([{ path: 'question', message: 'question must be at most 500 characters' }]);
  });
});

describe('GET /v1/faqs', () => {
  it('lists FAQs newest first with an exact totalCount, and pages', async () => {
    const { client } = await withFaqs(3);
    expect((await client.get('/v1/faqs')).body).toEqual({
      faqs: [3, 2, 1].map((id) => ({ id, question: `Question ${id}?`, answer: `Answer ${id}.`, isActive: true, updatedAt: expect.stringMatching(ISO_MS) })),
      totalPages: 1,
      currentPage: 1,
      totalCount: 3,
      nextCursor: null,
    });
    const page2 = (await client.get('/v1/faqs?page=2&limit=2')).body;
    expect(page2).toMatchObject({ totalPages: 2, currentPage: 2, totalCount: 3 });
    expect(page2.faqs.map((faq: { id: number }) => faq.id)).toEqual([1]);
  });

  it("lists the demo FAQs, and none of another organization's", async () => {
    const demo = await api.demoOrganization();
    const listed = (await demo.client.get('/v1/faqs')).body;
    expect(listed.faqs.map((faq: { id: number }) => faq.id)).toEqual([...(demo.demo!.faqIds as number[])].reverse());
    expect(listed.totalCount).toBe((demo.demo!.faqIds as number[]).length);
    const { client } = await api.organization();
    expect((await client.get('/v1/faqs')).body).toEqual({ faqs: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it('reads page 1 with one Query and one counter read', async () => {
    const { client } = await withFaqs(2);
    expect((await countDynamoCalls(() => client.get('/v1/faqs'))).sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  });
});

describe('PUT /v1/faqs/{faqId}', () => {
  it('changes only the fields sent', async () => {
    const { client } = await withFaqs(2);
    const res = await client.put('/v1/faqs/1', { answer: ' Yes. ', isActive: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ faq: { id: 1, question: 'Question 1?', answer: 'Yes.', isActive: false, updatedAt: expect.stringMatching(ISO_MS) } });
    expect((await client.get('/v1/faqs')).body.faqs[1]).toEqual(res.body.faq);
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['a blank question', { question: '' }, 'question'],
    ['an unknown field', { order: 1 }, 'order'],
  ])('answers 400 for %s', async (_, body, field) => {
    const { client } = await withFaqs(1);
    const res = await client.put('/v1/faqs/1', body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
  });

  it("answers 404 for an unknown FAQ and for another organization's", async () => {
    const owner = await withFaqs(1);
    const { client } = await api.organization();
    for (const path of ['/v1/faqs/1', '/v1/faqs/99']) {
      const res = await client.put(path, { isActive: false });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('FAQ not found');
    }
    expect((await owner.client.get('/v1/faqs')).body.faqs[0].isActive).toBe(true);
  });
});

describe('DELETE /v1/faqs/{faqId}', () => {
  it('removes the FAQ and lowers totalCount; a second delete answers 404', async () => {
    const { client } = await withFaqs(2);
    expect((await client.delete('/v1/faqs/1')).body).toEqual({ success: true, id: 1 });
    expect((await client.get('/v1/faqs')).body).toMatchObject({ totalCount: 1, faqs: [{ id: 2 }] });
    expect((await client.delete('/v1/faqs/1')).status).toBe(404);
    expect((await client.get('/v1/faqs')).body.totalCount).toBe(1);
  });

  it("answers 404 for another organization's FAQ and leaves it", async () => {
    const owner = await withFaqs(1);
    const { client } = await api.organization();
    expect((await client.delete('/v1/faqs/1')).status).toBe(404);
    expect((await owner.client.get('/v1/faqs')).body.totalCount).toBe(1);
  });
});

describe('GET /v1/faqs/{faqId}', () => {
  it('answers the FAQ as the list shows it, with one GetItem', async () => {
    const { client } = await withFaqs(2);
    let res: { status: number; body: any } | undefined;
    const calls = await countDynamoCalls(async () => {
      res = await client.get('/v1/faqs/2');
    });
    expect(res!.status).toBe(200);
    expect(res!.body).toEqual({ faq: { id: 2, question: 'Question 2?', answer: 'Answer 2.', isActive: true, updatedAt: expect.stringMatching(ISO_MS) } });
    expect(res!.body.faq).toEqual((await client.get('/v1/faqs')).body.faqs[0]);
    expect(calls).toEqual(['GetItemCommand']);
  });

  it("answers 404 for a deleted FAQ and for another organization's", async () => {
    const owner = await withFaqs(2);
    await owner.client.delete('/v1/faqs/2');
    const { client } = await api.organization();
    expect((await owner.client.get('/v1/faqs/2')).body.error).toEqual({ status: 404, message: 'FAQ not found', code: 'NOT_FOUND' });
    expect((await client.get('/v1/faqs/1')).status).toBe(404);
    expect((await owner.client.get('/v1/faqs/1')).status).toBe(200);
  });
});
